package dev.lake.engine;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The allow- and deny-lists of SQL admission. Table functions are allow-listed (only generators
 * that read nothing); scalar functions are deny-listed by exact name and by prefix for families
 * that read files, URLs, secrets, settings or catalog metadata of the host database.
 */
final class AdmissionRules {
  private AdmissionRules() {}

  /** Table functions allowed in FROM: pure generators over their arguments. */
  static final Set<String> TABLE_FUNCTIONS = Set.of("range", "generate_series", "unnest");

  /** Functions rejected anywhere in the tree, by exact (lower-case) name. */
  static final Set<String> DENIED_FUNCTIONS =
      Set.of(
          "getenv",
          "current_setting",
          "current_query",
          "getvariable",
          "which_secret",
          "glob",
          "read_text",
          "read_blob",
          "sniff_csv",
          "query",
          "query_table",
          "parquet_scan",
          "arrow_scan",
          "arrow_scan_dumb",
          "seq_scan",
          "checkpoint",
          "force_checkpoint",
          "json_execute_serialized_sql",
          "json_serialize_sql",
          "json_deserialize_sql",
          "json_serialize_plan",
          "sql_auto_complete",
          "summary",
          "test_all_types",
          "repeat_row",
          "load_aws_credentials",
          "enable_logging",
          "disable_logging",
          "truncate_duckdb_logs");

  /** Function families rejected by prefix: file/URL readers, host metadata, settings. */
  static final List<String> DENIED_PREFIXES =
      List.of(
          "read_",
          "duckdb_",
          "pragma_",
          "parquet_",
          "sqlite_",
          "postgres_",
          "mysql_",
          "iceberg_",
          "delta_",
          "lance_",
          "http",
          "s3_",
          "icu_",
          "scan_",
          "to_json_file");

  /**
   * Bare names DuckDB binds to session functions when no column has that name (SQL value
   * functions); they would reveal session metadata, so they must be qualified columns.
   */
  static final Set<String> VALUE_FUNCTIONS =
      Set.of(
          "current_catalog",
          "current_schema",
          "current_role",
          "current_user",
          "session_user",
          "user");

  /** DuckDB's own catalogs, never lake tables. */
  static final Set<String> INTERNAL_CATALOGS = Set.of("system", "temp", "memory", "main");

  static boolean deniedFunction(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (DENIED_FUNCTIONS.contains(n)) {
      return true;
    }
    for (String p : DENIED_PREFIXES) {
      if (n.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** The construct a non-SELECT statement is, named from its leading words. */
  static String construct(List<LeadingWords.Word> words) {
    if (words.isEmpty()) {
      return "This statement";
    }
    String first = words.get(0).text();
    switch (first) {
      case "CREATE":
        for (LeadingWords.Word w : words) {
          if (w.text().equals("SECRET")) {
            return "CREATE SECRET";
          }
        }
        return "DDL (CREATE)";
      case "DROP":
      case "ALTER":
      case "COMMENT":
        return "DDL (" + first + ")";
      case "INSERT":
      case "UPDATE":
      case "DELETE":
      case "MERGE":
      case "TRUNCATE":
      case "UPSERT":
        return "DML (" + first + ")";
      case "BEGIN":
      case "START":
      case "COMMIT":
      case "ROLLBACK":
      case "ABORT":
      case "END":
        return "Transaction control (" + first + ")";
      default:
        return first;
    }
  }
}
