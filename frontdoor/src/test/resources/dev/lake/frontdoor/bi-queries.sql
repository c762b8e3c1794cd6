-- BI-style statements lake must answer exactly as DuckDB does over the same rows
-- (SqlCompatibilityEndToEndTest). One statement per block, blocks end with ';' at the end of a line.
-- Every result is ordered, so the rows compare in order.

-- window: rank per partition
SELECT n_regionkey, n_name, rank() OVER (PARTITION BY n_regionkey ORDER BY n_name) AS r
FROM lake.tpch.nation ORDER BY n_regionkey, r;

-- window: running sum over a frame, named window
SELECT o_orderkey, sum(o_totalprice) OVER w AS running
FROM lake.tpch.orders WHERE o_orderkey < 200
WINDOW w AS (ORDER BY o_orderkey ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
ORDER BY o_orderkey;

-- window: lag, lead, ntile, first_value
SELECT n_nationkey, lag(n_name) OVER (ORDER BY n_nationkey) AS prev,
       lead(n_name, 2, 'none') OVER (ORDER BY n_nationkey) AS next2,
       ntile(4) OVER (ORDER BY n_nationkey) AS quartile,
       first_value(n_name) OVER (PARTITION BY n_regionkey ORDER BY n_nationkey) AS first_in_region
FROM lake.tpch.nation ORDER BY n_nationkey;

-- top N per group with QUALIFY
SELECT c_nationkey, c_custkey, c_acctbal FROM lake.tpch.customer
QUALIFY row_number() OVER (PARTITION BY c_nationkey ORDER BY c_acctbal DESC, c_custkey) <= 2
ORDER BY c_nationkey, c_acctbal DESC;

-- ROLLUP
SELECT l_returnflag, l_linestatus, count(*) AS n, sum(l_quantity) AS qty
FROM lake.tpch.lineitem GROUP BY ROLLUP (l_returnflag, l_linestatus)
ORDER BY l_returnflag NULLS LAST, l_linestatus NULLS LAST;

-- CUBE with GROUPING()
SELECT l_returnflag, l_shipmode, grouping(l_returnflag, l_shipmode) AS g, count(*) AS n
FROM lake.tpch.lineitem GROUP BY CUBE (l_returnflag, l_shipmode)
ORDER BY g, l_returnflag NULLS LAST, l_shipmode NULLS LAST;

-- GROUPING SETS
SELECT o_orderstatus, o_orderpriority, count(*) AS n FROM lake.tpch.orders
GROUP BY GROUPING SETS ((o_orderstatus), (o_orderpriority), ())
ORDER BY o_orderstatus NULLS LAST, o_orderpriority NULLS LAST;

-- dates: date_trunc, extract, strftime, date_diff, intervals
SELECT date_trunc('month', o_orderdate) AS month, extract(year FROM o_orderdate) AS y,
       strftime(o_orderdate, '%Y/%m') AS ym, date_diff('day', DATE '1992-01-01', o_orderdate) AS d,
       o_orderdate + INTERVAL 1 MONTH AS next_month, dayofweek(o_orderdate) AS dow,
       date_part('quarter', o_orderdate) AS q
FROM lake.tpch.orders WHERE o_orderkey < 40 ORDER BY o_orderkey;

-- dates: monthly revenue
SELECT date_trunc('year', l_shipdate) AS y, round(sum(l_extendedprice * (1 - l_discount)), 2) AS revenue
FROM lake.tpch.lineitem GROUP BY ALL ORDER BY ALL;

-- time zones (ICU)
SELECT o_orderkey, CAST(o_orderdate AS TIMESTAMP) AT TIME ZONE 'UTC' AT TIME ZONE 'America/New_York' AS ny
FROM lake.tpch.orders WHERE o_orderkey < 10 ORDER BY o_orderkey;

-- strings
SELECT n_name, lower(n_name) AS l, length(n_name) AS len, substring(n_name, 2, 3) AS sub,
       replace(n_name, 'A', '_') AS rep, split_part(n_comment, ' ', 2) AS word,
       concat(n_name, '-', n_nationkey) AS c, left(n_name, 2) AS l2, position('A' IN n_name) AS pos,
       starts_with(n_name, 'A') AS sa, trim('  ' || n_name || '  ') AS t
FROM lake.tpch.nation ORDER BY n_nationkey;

-- regular expressions and LIKE
SELECT c_custkey, regexp_extract(c_phone, '(\d+)-', 1) AS cc, regexp_matches(c_phone, '^\d{2}-') AS m,
       regexp_replace(c_name, '\d', '#', 'g') AS masked, c_name LIKE 'Customer#00000001%' AS l,
       c_mktsegment ILIKE 'auto%' AS il
FROM lake.tpch.customer WHERE c_custkey < 30 ORDER BY c_custkey;

-- CASE, COALESCE, NULLIF, try_cast
SELECT p_partkey, CASE WHEN p_size < 10 THEN 'small' WHEN p_size < 30 THEN 'medium' ELSE 'large' END AS s,
       coalesce(NULLIF(p_container, 'JUMBO PKG'), 'jumbo') AS c, try_cast(p_brand AS INTEGER) AS tc
FROM lake.tpch.part WHERE p_partkey < 50 ORDER BY p_partkey;

-- IN and EXISTS subqueries, correlated scalar subquery
SELECT s_suppkey, s_name,
       (SELECT count(*) FROM lake.tpch.partsupp ps WHERE ps.ps_suppkey = s.s_suppkey) AS parts
FROM lake.tpch.supplier s
WHERE s_nationkey IN (SELECT n_nationkey FROM lake.tpch.nation WHERE n_regionkey = 1)
  AND EXISTS (SELECT 1 FROM lake.tpch.partsupp ps WHERE ps.ps_suppkey = s.s_suppkey AND ps_availqty > 9000)
ORDER BY s_suppkey;

-- NOT EXISTS anti-join
SELECT count(*) AS customers_without_orders FROM lake.tpch.customer c
WHERE NOT EXISTS (SELECT 1 FROM lake.tpch.orders o WHERE o.o_custkey = c.c_custkey);

-- CTEs used twice
WITH big AS (SELECT o_custkey, sum(o_totalprice) AS total FROM lake.tpch.orders GROUP BY o_custkey),
     avg_total AS (SELECT avg(total) AS a FROM big)
SELECT count(*) AS above FROM big, avg_total WHERE total > a;

-- set operations
SELECT n_regionkey AS k FROM lake.tpch.nation UNION SELECT r_regionkey FROM lake.tpch.region
INTERSECT SELECT 2 EXCEPT SELECT 3 ORDER BY k;

-- lists and list aggregates (as text)
SELECT n_regionkey, CAST(list(n_name ORDER BY n_name) AS VARCHAR) AS names,
       string_agg(n_name, ',' ORDER BY n_name) AS joined, len(list(n_name)) AS n
FROM lake.tpch.nation GROUP BY n_regionkey ORDER BY n_regionkey;

-- unnest in FROM and SELECT
SELECT r_name, unnest(string_split(r_comment, ' ')) AS word FROM lake.tpch.region
ORDER BY r_name, word LIMIT 30;

-- structs: literals and field access
SELECT n_nationkey, {'name': n_name, 'region': n_regionkey}.name AS name,
       struct_pack(k := n_nationkey * 2).k AS k2
FROM lake.tpch.nation ORDER BY n_nationkey;

-- PIVOT with an IN list, UNPIVOT
PIVOT (SELECT l_returnflag, l_linestatus, l_quantity FROM lake.tpch.lineitem)
ON l_linestatus IN ('F', 'O') USING sum(l_quantity) GROUP BY l_returnflag ORDER BY l_returnflag;

UNPIVOT (SELECT r_regionkey, CAST(r_regionkey * 10 AS BIGINT) AS a, CAST(r_regionkey * 100 AS BIGINT) AS b
         FROM lake.tpch.region)
ON a, b INTO NAME k VALUE v ORDER BY r_regionkey, k;

-- aggregates: statistics, percentiles, FILTER, DISTINCT, arg_max
SELECT l_shipmode, count(DISTINCT l_suppkey) AS suppliers, median(l_quantity) AS med,
       quantile_cont(l_extendedprice, 0.9) AS p90, round(stddev_samp(l_discount), 6) AS sd,
       count(*) FILTER (WHERE l_returnflag = 'R') AS returned, arg_max(l_orderkey, l_extendedprice) AS top_order
FROM lake.tpch.lineitem GROUP BY l_shipmode ORDER BY l_shipmode;

-- HAVING, LIMIT and OFFSET
SELECT o_custkey, count(*) AS orders FROM lake.tpch.orders GROUP BY o_custkey HAVING count(*) > 20
ORDER BY orders DESC, o_custkey LIMIT 5 OFFSET 2;

-- DuckDB conveniences: SELECT * EXCLUDE/REPLACE, COLUMNS, GROUP BY ALL
SELECT * EXCLUDE (n_comment) REPLACE (upper(n_name) AS n_name) FROM lake.tpch.nation ORDER BY n_nationkey;

SELECT max(COLUMNS('^r_(name|regionkey)$')) FROM lake.tpch.region;

-- columns qualified by the table's full name, quoted, as Metabase writes them
SELECT "lake"."tpch"."nation"."n_name" AS "n_name", "tpch"."nation"."n_regionkey"
FROM "lake"."tpch"."nation" WHERE "lake"."tpch"."nation"."n_regionkey" = 2
ORDER BY "lake"."tpch"."nation"."n_name" ASC;

-- generators joined with tables
SELECT g.i, count(n_nationkey) AS n FROM generate_series(0, 4) g(i)
LEFT JOIN lake.tpch.nation ON n_regionkey = g.i GROUP BY g.i ORDER BY g.i;

-- TPC-H Q12
SELECT l_shipmode,
       sum(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority = '2-HIGH' THEN 1 ELSE 0 END) AS high_line_count,
       sum(CASE WHEN o_orderpriority <> '1-URGENT' AND o_orderpriority <> '2-HIGH' THEN 1 ELSE 0 END) AS low_line_count
FROM lake.tpch.orders, lake.tpch.lineitem
WHERE o_orderkey = l_orderkey AND l_shipmode IN ('MAIL', 'SHIP') AND l_commitdate < l_receiptdate
  AND l_shipdate < l_commitdate AND l_receiptdate >= DATE '1994-01-01' AND l_receiptdate < DATE '1995-01-01'
GROUP BY l_shipmode ORDER BY l_shipmode;

-- a BI tool's paged, filtered, sorted table view
SELECT c_custkey, c_name, c_acctbal FROM lake.tpch.customer
WHERE c_mktsegment = 'BUILDING' AND c_acctbal BETWEEN 1000 AND 5000
ORDER BY c_acctbal DESC, c_custkey LIMIT 20 OFFSET 20;

-- window frames: moving average, percent_rank, cume_dist, nth_value, share of the total
SELECT o_orderkey, avg(o_totalprice) OVER (ORDER BY o_orderkey ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS mov
FROM lake.tpch.orders WHERE o_orderkey < 100 ORDER BY o_orderkey;

SELECT n_nationkey, percent_rank() OVER (ORDER BY n_nationkey) AS pr, cume_dist() OVER (ORDER BY n_regionkey) AS cd,
       nth_value(n_name, 2) OVER (PARTITION BY n_regionkey ORDER BY n_nationkey) AS second
FROM lake.tpch.nation ORDER BY n_nationkey;

SELECT c_nationkey, round(100.0 * sum(c_acctbal) / sum(sum(c_acctbal)) OVER (), 4) AS share
FROM lake.tpch.customer GROUP BY c_nationkey ORDER BY c_nationkey;

SELECT n_nationkey, string_agg(n_name, ',' ORDER BY n_name) OVER (PARTITION BY n_regionkey) AS names
FROM lake.tpch.nation ORDER BY n_nationkey;

-- statistics and arg_min/arg_max
SELECT round(corr(l_quantity, l_extendedprice), 6) AS r, round(regr_slope(l_extendedprice, l_quantity), 4) AS slope
FROM lake.tpch.lineitem;

SELECT c_nationkey, arg_min(c_name, c_acctbal) AS poorest, arg_max(c_name, c_acctbal) AS richest
FROM lake.tpch.customer GROUP BY 1 ORDER BY 1;

-- dates: month ends, names, ISO weeks, differences
SELECT o_orderkey, last_day(o_orderdate) AS eom, monthname(o_orderdate) AS mn, dayname(o_orderdate) AS dn,
       datediff('month', o_orderdate, DATE '1999-01-01') AS months, week(o_orderdate) AS wk, isodow(o_orderdate) AS dow
FROM lake.tpch.orders WHERE o_orderkey < 20 ORDER BY o_orderkey;

SELECT strftime(TIMESTAMP '2024-07-04 15:16:17', '%A %d %B %Y %I:%M %p') AS s, strftime(DATE '2024-12-31', '%j') AS doy,
       CAST(timezone('America/New_York', TIMESTAMPTZ '2024-03-10 07:30:00+00') AS VARCHAR) AS ny;

-- strings: split, translate, concat_ws, edit distance
SELECT n_name, split_part(n_comment, ' ', 2) AS w2, reverse(n_name) AS rev, translate(n_name, 'AEI', 'aei') AS t,
       concat_ws('/', n_name, n_regionkey) AS cw, levenshtein(n_name, 'CANADA') AS lv
FROM lake.tpch.nation ORDER BY n_nationkey;

-- regular expressions with backslash classes
SELECT c_custkey, regexp_extract(c_phone, '^(\d+)-', 1) AS cc, regexp_replace(c_phone, '\d', '#', 'g') AS masked,
       regexp_full_match(c_phone, '\d+-\d+-\d+-\d+') AS full
FROM lake.tpch.customer WHERE c_custkey < 8 ORDER BY c_custkey;

-- conditionals, casts, math, bits
SELECT o_orderkey, greatest(o_shippriority, 1) AS g, least(o_totalprice, 1000) AS l,
       try_cast(o_clerk AS INTEGER) AS bad, CAST(o_totalprice AS INTEGER) AS whole
FROM lake.tpch.orders WHERE o_orderkey < 30 ORDER BY o_orderkey;

SELECT round(ln(10), 6) AS ln, round(log10(1000), 6) AS lg, 17 // 5 AS idiv, mod(17, 5) AS m, power(2, 10) AS p,
       bit_count(255) AS bc, 6 & 3 AS band, xor(6, 3) AS bx, 1 << 4 AS sh;

-- LATERAL, ALL, recursive CTE
SELECT c.c_name, o.cnt FROM lake.tpch.customer c,
       LATERAL (SELECT count(*) AS cnt FROM lake.tpch.orders o WHERE o.o_custkey = c.c_custkey) o
WHERE c.c_custkey < 10 ORDER BY c.c_name;

SELECT p_partkey FROM lake.tpch.part p
WHERE p_retailprice > ALL (SELECT ps_supplycost FROM lake.tpch.partsupp ps WHERE ps.ps_partkey = p.p_partkey)
  AND p_partkey < 30 ORDER BY 1;

WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 10) SELECT sum(n) AS s FROM t;

-- FULL OUTER, SEMI, ANTI and ASOF joins
SELECT r.r_name, count(n.n_nationkey) AS n FROM lake.tpch.region r
FULL OUTER JOIN lake.tpch.nation n ON n.n_regionkey = r.r_regionkey GROUP BY 1 ORDER BY 1;

SELECT c_custkey FROM lake.tpch.customer c SEMI JOIN lake.tpch.orders o ON o.o_custkey = c.c_custkey
WHERE c_custkey < 30 ORDER BY 1;

SELECT c_custkey FROM lake.tpch.customer c ANTI JOIN lake.tpch.orders o ON o.o_custkey = c.c_custkey
WHERE c_custkey < 60 ORDER BY 1;

SELECT o.o_orderkey, l.l_linenumber FROM lake.tpch.orders o
ASOF JOIN lake.tpch.lineitem l ON o.o_orderkey = l.l_orderkey AND o.o_orderdate >= l.l_shipdate - INTERVAL 400 DAY
WHERE o.o_orderkey < 40 ORDER BY 1, 2;

-- UNION BY NAME, DISTINCT ON, COLUMNS, FROM first
SELECT 'n' AS k, count(*) AS c FROM lake.tpch.nation UNION ALL BY NAME SELECT count(*) AS c, 'r' AS k FROM lake.tpch.region ORDER BY k;

SELECT DISTINCT ON (n_regionkey) n_regionkey, n_name FROM lake.tpch.nation ORDER BY n_regionkey, n_name;

SELECT COLUMNS('^n_(name|regionkey)$') FROM lake.tpch.nation ORDER BY n_nationkey LIMIT 4;

FROM lake.tpch.region SELECT r_name ORDER BY r_name;

-- PIVOT with two aggregates
SELECT * FROM (SELECT n_regionkey, n_nationkey FROM lake.tpch.nation)
PIVOT (count(*) AS c, max(n_nationkey) AS m FOR n_regionkey IN (0, 1));

-- Metabase: a quoted, fully qualified aggregate in a nested source query
SELECT "source"."o_orderpriority" AS "o_orderpriority", "source"."sum" AS "sum"
FROM (SELECT "lake"."tpch"."orders"."o_orderpriority" AS "o_orderpriority", sum("lake"."tpch"."orders"."o_totalprice") AS "sum"
      FROM "lake"."tpch"."orders" GROUP BY "lake"."tpch"."orders"."o_orderpriority") "source"
ORDER BY "source"."sum" DESC;
