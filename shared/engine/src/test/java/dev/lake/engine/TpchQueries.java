package dev.lake.engine;

/** TPC-H query text with {@code {t}} placeholders for table names. */
final class TpchQueries {
  private TpchQueries() {}

  static final String Q1 =
      "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,"
          + " sum(l_extendedprice) AS sum_base_price,"
          + " sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
          + " sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,"
          + " avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price,"
          + " avg(l_discount) AS avg_disc, count(*) AS count_order"
          + " FROM {lineitem}"
          + " WHERE l_shipdate <= date '1998-12-01' - interval '90' day"
          + " GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus";

  static final String Q3 =
      "SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate,"
          + " o_shippriority FROM {customer}, {orders}, {lineitem}"
          + " WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey"
          + " AND o_orderdate < date '1995-03-15' AND l_shipdate > date '1995-03-15'"
          + " GROUP BY l_orderkey, o_orderdate, o_shippriority"
          + " ORDER BY revenue DESC, o_orderdate, l_orderkey LIMIT 10";

  static final String Q6 =
      "SELECT sum(l_extendedprice * l_discount) AS revenue FROM {lineitem}"
          + " WHERE l_shipdate >= date '1994-01-01'"
          + " AND l_shipdate < date '1994-01-01' + interval '1' year"
          + " AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24";

  /** The eight TPC-H queries of benchmark P3 (validation parameters), by id. */
  static final java.util.Map<String, String> P3 = p3();

  private static java.util.Map<String, String> p3() {
    java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
    m.put(
        "Q1",
        "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty,"
            + " sum(l_extendedprice) AS sum_base_price, sum(l_extendedprice * (1 - l_discount))"
            + " AS sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS"
            + " sum_charge, avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price,"
            + " avg(l_discount) AS avg_disc, count(*) AS count_order FROM {lineitem} WHERE"
            + " l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY"
            + " l_returnflag, l_linestatus");
    m.put(
        "Q3",
        "SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue,"
            + " o_orderdate, o_shippriority FROM {customer}, {orders}, {lineitem} WHERE"
            + " c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey"
            + " AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15' GROUP BY"
            + " l_orderkey, o_orderdate, o_shippriority ORDER BY revenue DESC, o_orderdate LIMIT"
            + " 10");
    m.put(
        "Q5",
        "SELECT n_name, sum(l_extendedprice * (1 - l_discount)) AS revenue FROM"
            + " {customer}, {orders}, {lineitem}, {supplier}, {nation}, {region} WHERE c_custkey"
            + " = o_custkey AND l_orderkey = o_orderkey AND l_suppkey = s_suppkey AND"
            + " c_nationkey = s_nationkey AND s_nationkey = n_nationkey AND n_regionkey ="
            + " r_regionkey AND r_name = 'ASIA' AND o_orderdate >= DATE '1994-01-01' AND"
            + " o_orderdate < DATE '1995-01-01' GROUP BY n_name ORDER BY revenue DESC");
    m.put(
        "Q6",
        "SELECT sum(l_extendedprice * l_discount) AS revenue FROM {lineitem} WHERE"
            + " l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND"
            + " l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24");
    m.put(
        "Q10",
        "SELECT c_custkey, c_name, sum(l_extendedprice * (1 - l_discount)) AS revenue,"
            + " c_acctbal, n_name, c_address, c_phone, c_comment FROM {customer}, {orders},"
            + " {lineitem}, {nation} WHERE c_custkey = o_custkey AND l_orderkey = o_orderkey AND"
            + " o_orderdate >= DATE '1993-10-01' AND o_orderdate < DATE '1994-01-01' AND"
            + " l_returnflag = 'R' AND c_nationkey = n_nationkey GROUP BY c_custkey, c_name,"
            + " c_acctbal, c_phone, n_name, c_address, c_comment ORDER BY revenue DESC LIMIT 20");
    m.put(
        "Q12",
        "SELECT l_shipmode, sum(CASE WHEN o_orderpriority = '1-URGENT' OR o_orderpriority"
            + " = '2-HIGH' THEN 1 ELSE 0 END) AS high_line_count, sum(CASE WHEN o_orderpriority"
            + " <> '1-URGENT' AND o_orderpriority <> '2-HIGH' THEN 1 ELSE 0 END) AS"
            + " low_line_count FROM {orders}, {lineitem} WHERE o_orderkey = l_orderkey AND"
            + " l_shipmode IN ('MAIL', 'SHIP') AND l_commitdate < l_receiptdate AND l_shipdate <"
            + " l_commitdate AND l_receiptdate >= DATE '1994-01-01' AND l_receiptdate < DATE"
            + " '1995-01-01' GROUP BY l_shipmode ORDER BY l_shipmode");
    m.put(
        "Q14",
        "SELECT 100.00 * sum(CASE WHEN p_type LIKE 'PROMO%' THEN l_extendedprice * (1 -"
            + " l_discount) ELSE 0 END) / sum(l_extendedprice * (1 - l_discount)) AS"
            + " promo_revenue FROM {lineitem}, {part} WHERE l_partkey = p_partkey AND l_shipdate"
            + " >= DATE '1995-09-01' AND l_shipdate < DATE '1995-10-01'");
    m.put(
        "Q19",
        "SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue FROM {lineitem},"
            + " {part} WHERE (p_partkey = l_partkey AND p_brand = 'Brand#12' AND p_container IN"
            + " ('SM CASE', 'SM BOX', 'SM PACK', 'SM PKG') AND l_quantity >= 1 AND l_quantity <="
            + " 11 AND p_size BETWEEN 1 AND 5 AND l_shipmode IN ('AIR', 'AIR REG') AND"
            + " l_shipinstruct = 'DELIVER IN PERSON') OR (p_partkey = l_partkey AND p_brand ="
            + " 'Brand#23' AND p_container IN ('MED BAG', 'MED BOX', 'MED PKG', 'MED PACK') AND"
            + " l_quantity >= 10 AND l_quantity <= 20 AND p_size BETWEEN 1 AND 10 AND l_shipmode"
            + " IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN PERSON') OR (p_partkey ="
            + " l_partkey AND p_brand = 'Brand#34' AND p_container IN ('LG CASE', 'LG BOX', 'LG"
            + " PACK', 'LG PKG') AND l_quantity >= 20 AND l_quantity <= 30 AND p_size BETWEEN 1"
            + " AND 15 AND l_shipmode IN ('AIR', 'AIR REG') AND l_shipinstruct = 'DELIVER IN"
            + " PERSON')");
    return java.util.Collections.unmodifiableMap(m);
  }

  /** The query over lake tables ({@code lake.tpch.x}). */
  static String lake(String q) {
    return q.replaceAll("\\{([a-z]+)\\}", "lake.tpch.$1");
  }

  /** The query over native DuckDB tables of the same names. */
  static String local(String q) {
    return q.replaceAll("\\{([a-z]+)\\}", "$1");
  }
}
