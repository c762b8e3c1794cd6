package dev.lake.engine;

/** TPC-H Q1, Q3 and Q6 text with {@code {t}} placeholders for table names. */
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

  /** The query over lake tables ({@code lake.tpch.x}). */
  static String lake(String q) {
    return q.replaceAll("\\{([a-z]+)\\}", "lake.tpch.$1");
  }

  /** The query over native DuckDB tables of the same names. */
  static String local(String q) {
    return q.replaceAll("\\{([a-z]+)\\}", "$1");
  }
}
