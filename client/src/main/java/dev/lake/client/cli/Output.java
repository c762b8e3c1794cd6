package dev.lake.client.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;

/**
 * Where a result goes: standard output, or a file that appears under its name only once the result
 * was written completely (it is written next to it under a temporary name, then renamed), so a
 * failed or killed command never leaves a truncated file behind.
 */
final class Output implements AutoCloseable {
  private final PrintStream stdout;
  private final Optional<Path> target;
  private final Optional<Path> temporary;
  private OutputStream stream;
  private boolean committed;

  private Output(PrintStream stdout, Optional<Path> target) throws IOException {
    this.stdout = stdout;
    this.target = target;
    if (target.isPresent()) {
      Path absolute = target.get().toAbsolutePath();
      Files.createDirectories(absolute.getParent());
      this.temporary =
          Optional.of(
              absolute.resolveSibling(
                  "." + absolute.getFileName() + "." + UUID.randomUUID() + ".tmp"));
    } else {
      this.temporary = Optional.empty();
    }
  }

  static Output stdout(PrintStream stdout) throws IOException {
    return new Output(stdout, Optional.empty());
  }

  static Output file(Path target) throws IOException {
    return new Output(System.out, Optional.of(target));
  }

  boolean isFile() {
    return target.isPresent();
  }

  /** The file to write for writers that need a path (Parquet); only for file outputs. */
  Path path() {
    return temporary.orElseThrow(
        () -> new IllegalArgumentException("this format needs --output FILE"));
  }

  /**
   * The byte stream (the temporary file, or standard output which is never closed here). Writing to
   * a standard output whose reader went away throws {@link ClosedOutputException}.
   */
  OutputStream stream() throws IOException {
    if (stream == null) {
      stream =
          temporary.isPresent()
              ? Files.newOutputStream(
                  temporary.get(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
              : new FilterOutputStream(stdout) {
                // PrintStream swallows write errors; checkError() reports them (and flushes,
                // which costs little: the writers hand over buffers of several KiB)
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                  out.write(b, off, len);
                  if (stdout.checkError()) {
                    throw new ClosedOutputException();
                  }
                }

                @Override
                public void flush() throws IOException {
                  if (stdout.checkError()) {
                    throw new ClosedOutputException();
                  }
                }

                @Override
                public void close() throws IOException {
                  flush();
                }
              };
    }
    return stream;
  }

  /** The result is complete: close the stream and give the file its name. */
  void commit() throws IOException {
    if (stream != null) {
      stream.close();
    }
    if (temporary.isPresent()) {
      Files.move(
          temporary.get(),
          target.get(),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } else {
      stdout.flush();
    }
    committed = true;
  }

  /** Without a commit, removes the temporary file. */
  @Override
  public void close() throws IOException {
    if (!committed) {
      try {
        if (stream != null) {
          stream.close();
        }
      } finally {
        if (temporary.isPresent()) {
          Files.deleteIfExists(temporary.get());
        }
      }
    }
  }
}
