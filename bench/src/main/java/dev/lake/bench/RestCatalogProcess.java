package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The bench's Iceberg REST catalog in a JVM of its own ({@link RestCatalogMain}, spawned on this
 * JVM's class path like the client JVM), so its CPU, GC and JIT — it re-reads and parses a table's
 * metadata file on every loadTable — do not share lake's process, as a production catalog would
 * not. Creating cold tables and counting loadTable requests (P6) go through the child's line
 * protocol; both are done by the catalog server's own process, as before.
 */
final class RestCatalogProcess implements AutoCloseable {
  /** The catalog JVM's heap: the REST server and, on a first run, the TPC-H table writes. */
  static final String HEAP = "-Xmx1g";

  /** How long the first start may take: it writes the Iceberg tables at SF 1 on a loaded box. */
  static final Duration START_TIMEOUT = Duration.ofMinutes(30);

  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

  /** Stands for the end of the child's stdout in {@link #lines}. */
  private static final String EOF = new String("EOF");

  private final Process process;
  private final Writer commands;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final Path log;
  private final URI uri;

  private RestCatalogProcess(Process process, Path log) throws IOException {
    this.process = process;
    this.log = log;
    this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    Thread reader = new Thread(this::readAnswers, "rest-catalog-answers");
    reader.setDaemon(true);
    reader.start();
    String ready = next(START_TIMEOUT);
    if (!ready.startsWith("ready ")) {
      throw new IllegalStateException("REST catalog JVM did not start: " + ready);
    }
    this.uri = URI.create(ready.substring("ready ".length()));
  }

  /**
   * Spawns the catalog over {@code stateDir} (tables written from {@code parquet} when missing) and
   * waits until it serves; its stderr goes to {@code log}.
   */
  static RestCatalogProcess start(Path stateDir, Path parquet, Path log) throws Exception {
    return start(stateDir, parquet, log, Duration.ZERO);
  }

  /**
   * As above, the server warmed up for {@code warmup} before it reports ready ({@link
   * CatalogWarmup}).
   */
  static RestCatalogProcess start(Path stateDir, Path parquet, Path log, Duration warmup)
      throws Exception {
    requireNonNull(stateDir, "stateDir is null");
    requireNonNull(parquet, "parquet is null");
    Files.createDirectories(log.getParent());
    Process process =
        ChildJvm.builder(
                List.of(HEAP),
                RestCatalogMain.class,
                List.of(stateDir.toString(), parquet.toString(), Long.toString(warmup.toMillis())))
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    try {
      return new RestCatalogProcess(process, log);
    } catch (Exception | Error e) {
      process.destroyForcibly();
      throw e;
    }
  }

  URI uri() {
    return uri;
  }

  /** The catalog JVM's CPU time so far (all its threads), if the platform reports it. */
  Optional<Duration> cpu() {
    return process.toHandle().info().totalCpuDuration();
  }

  /** Creates TPC-H nation as {@code namespace.table} through the backend (not a REST request). */
  void createNation(String namespace, String table) {
    String answer = ask("cold " + namespace + " " + table);
    if (!answer.equals("ok")) {
      throw new IllegalStateException("REST catalog JVM: " + answer);
    }
  }

  /** REST loadTable requests the server has served for {@code namespace.table}. */
  long loadTableRequests(String namespace, String table) {
    String answer = ask("loads " + namespace + " " + table);
    try {
      return Long.parseLong(answer);
    } catch (NumberFormatException e) {
      throw new IllegalStateException("REST catalog JVM: " + answer, e);
    }
  }

  /** Sends one command and waits for its one answer line. */
  private synchronized String ask(String command) {
    try {
      commands.write(command + "\n");
      commands.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("REST catalog JVM does not take commands", e);
    }
    return next(ANSWER_TIMEOUT);
  }

  /**
   * The next answer line. Waits through interrupts (P6 interrupts the thread that polls the count
   * when its burst ends): an answer left unread would be taken as the answer to the next command.
   * The interrupt is restored before returning.
   */
  private String next(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    String line = null;
    try {
      while (line == null && System.nanoTime() < deadline) {
        try {
          line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (line == null) {
      throw new IllegalStateException(
          "REST catalog JVM gave no answer within " + timeout + "; " + logTail());
    }
    if (line == EOF) {
      lines.add(EOF); // every later call fails the same way
      throw new IllegalStateException("REST catalog JVM exited: " + logTail());
    }
    return line;
  }

  private String logTail() {
    try {
      return ChildJvm.tail(log);
    } catch (IOException e) {
      return "(log " + log + " unreadable: " + e.getMessage() + ")";
    }
  }

  private void readAnswers() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // the pipe broke: the child is gone, as at end of stream
    } finally {
      lines.add(EOF);
    }
  }

  /** Closes the child's stdin (it stops its server and exits); forces it after 10 s. */
  @Override
  public void close() throws Exception {
    try {
      commands.close();
    } catch (IOException e) {
      // already gone
    }
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
