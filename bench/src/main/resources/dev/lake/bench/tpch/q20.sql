SELECT s_name, s_address
FROM lake.tpch.supplier, lake.tpch.nation
WHERE s_suppkey IN (
    SELECT ps_suppkey FROM lake.tpch.partsupp
    WHERE ps_partkey IN (SELECT p_partkey FROM lake.tpch.part WHERE p_name LIKE 'forest%')
      AND ps_availqty > (
        SELECT 0.5 * sum(l_quantity) FROM lake.tpch.lineitem
        WHERE l_partkey = ps_partkey
          AND l_suppkey = ps_suppkey
          AND l_shipdate >= DATE '1994-01-01'
          AND l_shipdate < DATE '1995-01-01'))
  AND s_nationkey = n_nationkey
  AND n_name = 'CANADA'
ORDER BY s_name
