package dev.lake.engine;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;

/**
 * DuckDB's failures as lake's error taxonomy: what the client did (QUERY_FAILED with DuckDB's
 * message, scrubbed of engine names and local paths), what the engine could not do for it
 * (RESOURCE_EXHAUSTED with the limit that was hit, EXTERNAL_UNAVAILABLE for file errors under
 * lake's own scans) and what lake got wrong (INTERNAL).
 */
final class EngineErrors {
  private EngineErrors() {}

  private static final java.util.regex.Pattern FILE_ERROR =
      java.util.regex.Pattern.compile("(?i)\\b(file|files|pattern)\\b");

  /**
   * DuckDB's JDBC driver 1.5 reports a statement that failed while it ran as "Invalid Input Error:
   * Attempting to execute an unsuccessful or closed pending query result" followed by {@code Error:
   * <the failure>}; the failure is what is classified and shown.
   */
  private static final String PENDING_WRAPPER =
      "Invalid Input Error: Attempting to execute an unsuccessful or closed pending query result";

  static String cause(String message) {
    int inner = message.indexOf("\nError: ");
    return message.startsWith(PENDING_WRAPPER) && inner >= 0
        ? message.substring(inner + "\nError: ".length())
        : message;
  }

  static LakeException failure(Throwable e, boolean cancelled, DuckDbExecution.Limits limits) {
    if (e instanceof LakeException) {
      return (LakeException) e;
    }
    String message = cause(String.valueOf(e.getMessage()));
    if (cancelled || message.contains("INTERRUPT")) {
      return new LakeException(ErrorCode.CANCELLED, "The query was cancelled", e);
    }
    if (message.contains("Out of Memory") || message.contains("max_temp_directory_size")) {
      return new LakeException(
          ErrorCode.RESOURCE_EXHAUSTED,
          (limits.pools() == 1
                  ? "The query needs more than the engine's memory limit ("
                      + (limits.memoryLimitBytes() >> 20)
                      + " MiB, memory_limit, shared by every tenant"
                  : "The query needs more than its tenant's memory pool ("
                      + (limits.memoryLimitBytes() >> 20)
                      + " MiB, memory_limit; the engine memory is split into "
                      + limits.pools()
                      + " pools, one tenant each")
              + ") plus its spill space ("
              + (limits.maxTempBytes() >> 20)
              + " MiB, max_temp_directory_size); narrow it (fewer columns, filters, LIMIT), ask the"
              + " operator to raise the engine memory, or submit it to the durable tier",
          e);
    }
    if (message.startsWith("Permission Error")) {
      // only lake's own file scans name files (admission refuses them in client SQL): a reader
      // named a file outside the readable directories, and DuckDB refused it
      return new LakeException(
          ErrorCode.INTERNAL,
          "A table scan named a file outside the engine's readable directories",
          e);
    }
    // DuckDB's "LINE n: …" context quotes the rewritten statement, not the client's text: it would
    // show inlined file scans (local paths) and engine names, so it is dropped; so are the quoted
    // absolute paths of file errors (only lake's own scans and spill name files; a client's string
    // literal in, say, a conversion error is kept)
    String shown =
        message
            .replaceFirst("(?s)\\s*LINE [0-9]+:.*$", "")
            .replaceAll("(lake_cache\\.)?lake_([pqm][0-9]+_t[0-9]+(_s[0-9]+)?|c[0-9]+)", "<table>");
    if (FILE_ERROR.matcher(shown).find()) {
      shown = shown.replaceAll("([\"'])/[^\"']*\\1", "<file>");
    }
    if (message.startsWith("IO Error")) {
      // a data file or the spill space failed under lake's own scan: not the client's mistake
      return new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "The engine could not read or write a file of the query; retry later (" + shown + ")",
          e);
    }
    return new LakeException(ErrorCode.QUERY_FAILED, shown, e);
  }

  /**
   * A failure while setting a query up (connection, input registration): RESOURCE_EXHAUSTED when
   * the DuckDB memory pool it runs in is full at that moment (a transient state the caller can
   * retry), else INTERNAL naming {@code what}.
   */
  static LakeException setupFailure(String what, Throwable e) {
    if (e instanceof LakeException lake) {
      return lake;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains("Out of Memory")) {
        return new LakeException(
            ErrorCode.RESOURCE_EXHAUSTED,
            "The engine memory pool this query runs in is held by running queries; retry later"
                + " or submit the query to the durable tier",
            e);
      }
    }
    return new LakeException(ErrorCode.INTERNAL, what, e);
  }
}
