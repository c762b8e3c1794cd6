package dev.lake.client.cli;

import java.io.IOException;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Writes a whole result, batch by batch (never more than one batch resident), to an output. */
interface OutputWriter {
  /** Writes every batch of {@code reader} to {@code out}; returns the number of rows. */
  long write(ArrowReader reader, Output out) throws IOException;
}
