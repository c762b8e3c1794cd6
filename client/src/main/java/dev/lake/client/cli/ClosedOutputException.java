package dev.lake.client.cli;

import java.io.IOException;

/**
 * Standard output was closed by its reader ({@code bin/lake sql … | head}): the result is no longer
 * wanted. The command stops reading (which cancels the statement) and exits 0 without a message, as
 * psql and duckdb do.
 */
final class ClosedOutputException extends IOException {
  private static final long serialVersionUID = 1L;

  ClosedOutputException() {
    super("standard output was closed");
  }
}
