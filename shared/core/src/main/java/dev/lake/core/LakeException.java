package dev.lake.core;

import static java.util.Objects.requireNonNull;

/**
 * The only exception type that crosses a port. Its message is shown to the client as is, so it must
 * be actionable and must never contain secrets, storage locations or credentials.
 */
public class LakeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public LakeException(ErrorCode code, String message) {
    super(requireNonNull(message, "message is null"));
    this.code = requireNonNull(code, "code is null");
  }

  public LakeException(ErrorCode code, String message, Throwable cause) {
    super(requireNonNull(message, "message is null"), cause);
    this.code = requireNonNull(code, "code is null");
  }

  public ErrorCode code() {
    return code;
  }

  /** The canonical "missing or not granted" error: identical text for both cases. */
  public static LakeException tableNotFound(TableRef ref) {
    return new LakeException(ErrorCode.TABLE_NOT_FOUND, "Table " + ref + " does not exist");
  }
}
