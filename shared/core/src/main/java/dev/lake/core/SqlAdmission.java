package dev.lake.core;

/**
 * Decides from the parsed statement (never from regular expressions) whether client SQL may run:
 * exactly one SELECT, WITH ... SELECT or EXPLAIN of those, reading only fully qualified tables,
 * with no file/URL access, no table functions that read files or URLs, and no host-revealing
 * functions.
 */
public interface SqlAdmission {
  /**
   * Admits {@code sql} or throws {@link LakeException} with {@link ErrorCode#INVALID_SQL} or {@link
   * ErrorCode#SQL_NOT_ALLOWED} and a message that names the offending construct.
   */
  AdmittedQuery admit(String sql);
}
