package dev.lake.frontdoor;

import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.ResultConfig;
import dev.lake.worker.WorkerConfig;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The lake the client tests talk to: exactly what {@code bin/lake local} runs ({@link LocalLake}:
 * TPC-H SF 0.01, demo token in the data directory, durable tier on), on a free loopback port, with
 * result parts of at most {@code partRows} rows (so results span several parts), lease renewals
 * every second (a cancel stops a worker quickly) and a clock the test can move forward.
 */
public final class ClientTestLake implements AutoCloseable {
  private final MovableClock clock;
  private final LocalLake lake;

  private ClientTestLake(LocalLake lake, MovableClock clock) {
    this.lake = lake;
    this.clock = clock;
  }

  public static ClientTestLake start(Path dataDir, long partRows) {
    MovableClock clock = new MovableClock();
    LocalLake lake =
        LocalLake.start(
            new LocalLake.Options(
                dataDir,
                "127.0.0.1",
                0,
                Optional.empty(),
                0.01,
                clock,
                Optional.empty(),
                Optional.of(durable(partRows))),
            new PrintWriter(Writer.nullWriter()));
    return new ClientTestLake(lake, clock);
  }

  private static DurableTierConfig durable(long partRows) {
    DurableTierConfig local = DurableTierConfig.defaults().withResultPrefix("");
    ResultConfig r = local.durable().results();
    ResultConfig results =
        new ResultConfig(
            r.maxPartBytes(),
            partRows,
            r.maxMessageBytes(),
            r.maxBatchRows(),
            r.maxMetadataBytes(),
            r.resultTtl());
    DurableConfig d = local.durable();
    WorkerConfig w = local.worker();
    return new DurableTierConfig(
        local.pollWait(),
        local.waitBudget(),
        local.workers(),
        local.sweepEvery(),
        new DurableConfig(d.resultPrefix(), d.jobTtl(), d.partTicketTtl(), results),
        new WorkerConfig(
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            w.maxExecution(),
            w.lambdaMargin(),
            w.maxAttempts(),
            w.retryDelay(),
            w.resultPrefix(),
            results));
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
    clock.offset.updateAndGet(o -> o.plus(by));
  }

  @Override
  public void close() {
    lake.close();
  }

  /** The system clock plus an offset the test moves. */
  private static final class MovableClock extends Clock {
    final AtomicReference<Duration> offset = new AtomicReference<>(Duration.ZERO);

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return Instant.now().plus(offset.get());
    }
  }
}
