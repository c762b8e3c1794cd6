package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import dev.lake.bench.GreedyClient.Behaviour;
import dev.lake.bench.LoadRecorder.Phase;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * The multi-tenant load test (issue 8): an in-process lake on 127.0.0.1, N polite tenants × M
 * Flight SQL clients, and one greedy tenant whose clients read slowly, run heavy and memory-hungry
 * statements, spam durable jobs and send oversized statements. One run, three phases: polite-only
 * warm-up (not measured), polite-only baseline, then polite plus greedy (contention). Reports the
 * polite p50/p99 of both measured phases and their ratio, every outcome by Flight status, and the
 * process's peak RSS next to the engine's memory limit. Clients and server share this JVM, so the
 * RSS is an upper bound of the server's.
 */
final class LoadTest {
  private LoadTest() {}

  /** Runs {@code config} over data under {@code dir}; progress lines go to {@code log}. */
  static LoadReport run(LoadConfig config, Path dir, PrintStream log) throws Exception {
    requireNonNull(config, "config is null");
    String loadBefore = MachineInfo.loadAverage();
    long start = System.nanoTime();
    LoadRecorder recorder = new LoadRecorder();
    List<FlightClient> clients = new ArrayList<>();
    BufferAllocator allocator = new RootAllocator();
    try (MemorySampler memory = new MemorySampler();
        LoadServer server = LoadServer.start(config, dir)) {
      log.printf(
          "load test: lake on 127.0.0.1:%d ready in %.1f s%n",
          server.port(), (System.nanoTime() - start) / 1e9);
      drive(config, server, allocator, clients, recorder, log);
      return new LoadReport(
          config,
          server.frontDoor(),
          recorder.latencies(Phase.BASELINE),
          recorder.latencies(Phase.CONTENTION),
          recorder.outcomes(),
          memory.peakRss(),
          loadBefore,
          MachineInfo.loadAverage(),
          Duration.ofNanos(System.nanoTime() - start));
    } finally {
      closeClients(clients, allocator, log);
    }
  }

  /** Starts the clients and runs the three phases; returns once every client has stopped. */
  private static void drive(
      LoadConfig config,
      LoadServer server,
      BufferAllocator allocator,
      List<FlightClient> clients,
      LoadRecorder recorder,
      PrintStream log)
      throws InterruptedException {
    AtomicReference<Phase> phase = new AtomicReference<>(Phase.WARMUP);
    CountDownLatch stopPolite = new CountDownLatch(1);
    CountDownLatch stopGreedy = new CountDownLatch(1);
    List<Thread> polite = new ArrayList<>();
    List<Thread> greedy = new ArrayList<>();
    try {
      int id = 0;
      for (String token : server.politeTokens()) {
        for (int c = 0; c < config.clientsPerTenant(); c++) {
          FlightClient flight = connect(allocator, server.port(), clients);
          polite.add(
              thread(
                  "polite-" + id,
                  new PoliteClient(
                      new FlightSqlClient(flight),
                      bearer(token),
                      id++,
                      phase::get,
                      stopPolite,
                      recorder,
                      config)));
        }
      }
      for (int g = 0; g < config.greedyClients(); g++) {
        Behaviour b = GREEDY_ORDER[g % GREEDY_ORDER.length];
        greedy.add(
            thread(
                "greedy-" + g + "-" + b,
                new GreedyClient(
                    connect(allocator, server.port(), clients),
                    bearer(server.greedyToken()),
                    b,
                    stopGreedy,
                    recorder,
                    config)));
      }
      polite.forEach(Thread::start);
      int minimum = polite.size();
      pause(Phase.WARMUP, config.warmup(), minimum, recorder, log);
      phase.set(Phase.BASELINE);
      pause(Phase.BASELINE, config.baseline(), minimum, recorder, log);
      phase.set(Phase.CONTENTION);
      greedy.forEach(Thread::start);
      pause(Phase.CONTENTION, config.contention(), minimum, recorder, log);
      phase.set(Phase.DONE);
    } finally {
      stopGreedy.countDown();
      stopPolite.countDown();
      join(polite, config, log);
      join(greedy, config, log);
    }
  }

  /** Greedy behaviours in the order clients get them: slow readers first and most. */
  static final Behaviour[] GREEDY_ORDER = {
    Behaviour.SLOW_READER,
    Behaviour.HEAVY_QUERY,
    Behaviour.JOB_SPAM,
    Behaviour.OVERSIZED,
    Behaviour.MEMORY_HOG,
    Behaviour.SLOW_READER,
    Behaviour.HEAVY_QUERY,
    Behaviour.SLOW_READER
  };

  /**
   * Closes the clients (cancelling whatever a client that outlived its bound still has open) and
   * their allocator; buffers such a call still held are reported, not thrown, so the figures of a
   * finished run are never lost.
   */
  private static void closeClients(
      List<FlightClient> clients, BufferAllocator allocator, PrintStream log) {
    for (FlightClient c : clients) {
      try {
        c.close();
      } catch (Exception | Error e) {
        log.println("load test: a client closed with buffers still held: " + firstLine(e));
      }
    }
    try {
      allocator.close();
    } catch (RuntimeException e) {
      log.println("load test: client allocator closed with buffers still held: " + firstLine(e));
    }
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private static FlightClient connect(
      BufferAllocator allocator, int port, List<FlightClient> clients) {
    FlightClient client =
        FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port)).build();
    clients.add(client);
    return client;
  }

  static CallOption bearer(String token) {
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert("authorization", "Bearer " + token);
    return new HeaderCallOption(headers);
  }

  private static Thread thread(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  /**
   * Lets {@code phase} run for {@code length}, then on until at least {@code minimum} polite
   * requests that started in it have finished (a cold or loaded machine may need longer for one
   * request than a short phase lasts), at most {@code length} plus one minute more.
   */
  private static void pause(
      Phase phase, Duration length, int minimum, LoadRecorder recorder, PrintStream log)
      throws InterruptedException {
    log.printf("load test: %s for %d s%n", DESCRIPTIONS.get(phase), length.toSeconds());
    Thread.sleep(length.toMillis()); // the phase's measurement window; clients run on their own
    long cap = System.nanoTime() + length.plusMinutes(1).toNanos();
    if (recorder.completed(phase) < minimum) {
      log.printf(
          "load test: %s extended until %d polite requests finished%n",
          phase.name().toLowerCase(java.util.Locale.ROOT), minimum);
    }
    while (recorder.completed(phase) < minimum && System.nanoTime() < cap) {
      Thread.sleep(50); // polling a counter with a deadline
    }
  }

  private static final java.util.Map<Phase, String> DESCRIPTIONS =
      java.util.Map.of(
          Phase.WARMUP, "warm-up (polite only, not measured)",
          Phase.BASELINE, "baseline (polite only)",
          Phase.CONTENTION, "contention (polite + greedy)");

  /**
   * Waits for the clients to finish their current request: each is bounded by the server (a
   * deadline, the idle timeout or a refusal); past the bound the run goes on and closing the
   * clients cancels what is left.
   */
  private static void join(List<Thread> threads, LoadConfig config, PrintStream log)
      throws InterruptedException {
    long bound =
        System.nanoTime()
            + config
                .heavyDeadline()
                .multipliedBy(3)
                .plus(config.idleStreamTimeout().multipliedBy(12))
                .plusSeconds(30)
                .toNanos();
    for (Thread t : threads) {
      t.join(Math.max(1, (bound - System.nanoTime()) / 1_000_000));
      if (t.isAlive()) {
        log.println("load test: " + t.getName() + " still busy past its bound; cancelling it");
      }
    }
  }
}
