package dev.lake.app;

import dev.lake.core.testing.MutableClock;
import dev.lake.durable.DurableTierConfig;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The lake the client tests talk to: exactly what {@code bin/lake local} runs ({@link LocalLake}:
 * TPC-H SF 0.01, demo token in the data directory, durable tier on), on a free loopback port, with
 * result parts of at most {@code partRows} rows (so results span several parts), lease renewals
 * every second (a cancel stops a worker quickly) and a clock the test can move forward.
 */
public final class ClientTestLake implements AutoCloseable {
  private final MutableClock clock;
  private final LocalLake lake;

  private ClientTestLake(LocalLake lake, MutableClock clock) {
    this.lake = lake;
    this.clock = clock;
  }

  public static ClientTestLake start(Path dataDir, long partRows) {
    MutableClock clock = MutableClock.ticking();
    LocalLake lake =
        LocalLake.start(
            LocalLake.options(dataDir)
                .port(0)
                .clock(clock)
                .durable(Optional.of(durable(partRows)))
                .build(),
            new PrintWriter(Writer.nullWriter()));
    return new ClientTestLake(lake, clock);
  }

  private static DurableTierConfig durable(long partRows) {
    DurableTierConfig local = DurableTierConfig.defaults().withResultPrefix("");
    DurableTierConfig bounded =
        local.withResults(local.layout().bounds().withMaxPartRows(partRows));
    return bounded.withWorker(
        bounded
            .worker()
            .with()
            .lease(Duration.ofSeconds(5))
            .renewEvery(Duration.ofSeconds(1))
            .build());
  }

  public int port() {
    return lake.port();
  }

  public String url() {
    return "grpc+tcp://127.0.0.1:" + port();
  }

  /** The demo token, as {@code bin/lake local} keeps it in the data directory. */
  public String token() {
    return lake.token();
  }

  public Path dataDir() {
    return lake.layout().dataDir();
  }

  /** Moves the server's clock forward (expiry of jobs, results and tickets). */
  public void advance(Duration by) {
    clock.advance(by);
  }

  @Override
  public void close() {
    lake.close();
  }
}
