package dev.lake.sandbox;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the engine processes: one per slot (a memory pool; a slot runs one tenant's statements at a
 * time, {@link ProcessLeases}) plus one started spare. A slot's process is started on its first use
 * by taking the spare (a new spare starts as soon as the taken one is up, never two starts at
 * once), so a statement never waits for a JVM start unless two are needed in quick succession. A
 * watchdog samples every process's resident set ({@code /proc/PID/status} VmRSS) every {@link
 * SandboxConfig#watchdogInterval()} and SIGKILLs a process past its ceiling; its statements fail
 * with {@code RESOURCE_EXHAUSTED} naming the ceiling and its slot takes the spare on next use.
 * Deadline and abandonment kills go through {@link #kill} too. Processes exit by themselves when
 * this JVM goes away (their stdin closes).
 */
public final class EngineSupervisor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EngineSupervisor.class);

  /** A start is abandoned after this many start timeouts (a child that hangs, not a slow one). */
  static final int GIVE_UP_FACTOR = 5;

  private final SandboxConfig config;
  private final EngineLaunch launch;
  private final long ceilingBytes;
  private final Path directory;
  private final ProcessLeases leases;
  private final List<CompletableFuture<EngineProcess>> slots; // guarded by this
  private CompletableFuture<EngineProcess> spare; // guarded by this
  private final Set<EngineProcess> live = ConcurrentHashMap.newKeySet();
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicLong breaches = new AtomicLong();
  private final AtomicLong stopKills = new AtomicLong();
  private final ScheduledExecutorService timer;
  private final ExecutorService workers;
  private volatile boolean closed;

  /**
   * Starts the watchdog and the spare; {@code slotCount} slots whose processes each have the hard
   * ceiling {@code ceilingBytes}.
   */
  public EngineSupervisor(
      SandboxConfig config, EngineLaunch launch, int slotCount, long ceilingBytes) {
    this.config = requireNonNull(config, "config is null");
    this.launch = requireNonNull(launch, "launch is null");
    if (slotCount < 1) {
      throw new IllegalArgumentException("at least one engine process is needed");
    }
    this.ceilingBytes = ceilingBytes;
    this.leases = new ProcessLeases(slotCount);
    this.slots = new ArrayList<>();
    for (int i = 0; i < slotCount; i++) {
      slots.add(null);
    }
    try {
      this.directory =
          Files.createTempDirectory(
              "lake-engine-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException e) {
      throw new IllegalStateException("cannot create the engine socket directory", e);
    }
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "lake-engine-watchdog");
              t.setDaemon(true);
              return t;
            });
    this.workers =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "lake-engine-supervisor");
              t.setDaemon(true);
              return t;
            });
    long every = config.watchdogInterval().toMillis();
    timer.scheduleWithFixedDelay(this::watch, every, every, TimeUnit.MILLISECONDS);
    synchronized (this) {
      spare = config.spare() ? start() : null;
    }
  }

  SandboxConfig config() {
    return config;
  }

  long ceilingBytes() {
    return ceilingBytes;
  }

  int slotCount() {
    return leases.size();
  }

  /** A slot for {@code tenant} (waiting at most {@code maxWait}) and its running process. */
  Lease acquire(String tenant, Duration maxWait) {
    int slot = leases.acquire(tenant, maxWait);
    try {
      return new Lease(slot, process(slot));
    } catch (RuntimeException e) {
      leases.release(slot);
      throw e;
    }
  }

  /** One tenant's hold on a slot and the process that runs its statement. */
  record Lease(int slot, EngineProcess process) {}

  void release(Lease lease) {
    leases.release(lease.slot());
  }

  private EngineProcess process(int slot) {
    CompletableFuture<EngineProcess> future;
    synchronized (this) {
      if (closed) {
        throw new LakeException(ErrorCode.OVERLOADED, "The engine is shutting down; retry later");
      }
      future = slots.get(slot);
      if (future == null || failedOrDead(future)) {
        if (spare != null && !failedOrDead(spare)) {
          future = spare;
          spare = startAfter(future);
        } else {
          future = start();
          if (config.spare() && (spare == null || failedOrDead(spare))) {
            spare = startAfter(future);
          }
        }
        slots.set(slot, future);
      }
    }
    try {
      return future.get(config.startTimeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      // the start goes on (see launchOne): the slot's next statement waits for the same process
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "The engine process is still starting after "
              + EngineCall.human(config.startTimeout())
              + " (--engine-start-timeout); retry later",
          e);
    } catch (ExecutionException e) {
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "The engine process could not be started; retry later (operators: see the server log)",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException(ErrorCode.CANCELLED, "Interrupted while starting an engine");
    }
  }

  private static boolean failedOrDead(CompletableFuture<EngineProcess> f) {
    return f.isDone() && (f.isCompletedExceptionally() || !f.join().alive());
  }

  private CompletableFuture<EngineProcess> start() {
    return CompletableFuture.supplyAsync(this::launchOne, workers);
  }

  /**
   * A new spare, started once {@code first} (the process a statement waits for) is up or failed:
   * two starts at once share the CPU, and on a loaded machine both would take twice as long
   * (measured at load 20: about 36 s for each of two concurrent starts — most of it inflating
   * DuckDB's and Lance's native libraries from their jars and loading classes).
   */
  private CompletableFuture<EngineProcess> startAfter(CompletableFuture<EngineProcess> first) {
    return first.handle((p, e) -> null).thenComposeAsync(ignored -> start(), workers);
  }

  private EngineProcess launchOne() {
    int id = started.incrementAndGet();
    Path socket = directory.resolve("e" + id + ".sock");
    Path temp = temp(id);
    try {
      Files.createDirectories(temp);
    } catch (IOException e) {
      throw new IllegalStateException("cannot create an engine process's temp directory", e);
    }
    ProcessBuilder builder = new ProcessBuilder(launch.command(socket, config.heapBytes(), temp));
    builder.environment().putAll(launch.env());
    builder.redirectOutput(ProcessBuilder.Redirect.INHERIT);
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    EngineProcess process;
    try {
      process = new EngineProcess(id, builder.start(), socket, ceilingBytes);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start an engine process", e);
    }
    live.add(process);
    try {
      var stdin = process.process().getOutputStream();
      stdin.write((launch.settings() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      stdin.flush(); // kept open: the process exits when it closes
    } catch (IOException e) {
      process.kill(
          new LakeException(ErrorCode.INTERNAL, "engine process did not take its settings"));
    }
    if (closed) {
      process.kill(new LakeException(ErrorCode.OVERLOADED, "The engine is shutting down"));
    }
    process.process().onExit().thenRun(() -> exited(process));
    try {
      // a start is given up only long past what a waiting statement allows: under load (a spare
      // started at boot beside everything else) a start that outlives one statement's wait
      // still serves the next
      if (!process.awaitListening(config.startTimeout().toMillis() * GIVE_UP_FACTOR)) {
        process.kill(new LakeException(ErrorCode.INTERNAL, "engine process did not start"));
        throw new IllegalStateException(process + " did not start listening");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.kill(new LakeException(ErrorCode.INTERNAL, "engine start interrupted"));
      throw new IllegalStateException("interrupted", e);
    }
    LOG.info("{} is listening (ceiling {} MiB)", process, ceilingBytes >> 20);
    return process;
  }

  /** The private temp directory ({@code java.io.tmpdir}) of engine process {@code id}. */
  Path temp(int id) {
    return directory.resolve("e" + id + ".tmp");
  }

  private void exited(EngineProcess process) {
    live.remove(process);
    process.deleteSocket();
    deleteTree(temp(process.id()));
    if (!closed) {
      LOG.warn("{} exited: {}", process, process.ended().getMessage());
    }
  }

  /** One watchdog pass: sample every live process, kill those past their ceiling. */
  private void watch() {
    for (EngineProcess p : live) {
      long rss = residentBytes(p.pid());
      if (rss > 0 && p.sample(rss) && p.alive()) {
        breaches.incrementAndGet();
        LOG.warn("{} is past its memory ceiling ({} MiB resident): killed", p, rss >> 20);
        p.kill(
            new LakeException(
                ErrorCode.RESOURCE_EXHAUSTED,
                "The statement was stopped: the engine process running this tenant's statements"
                    + " went past its memory ceiling of "
                    + (ceilingBytes >> 20)
                    + " MiB (resident "
                    + (rss >> 20)
                    + " MiB) and was restarted; reduce what the statement builds in memory, or"
                    + " ask the operator to raise --engine-process-ceiling-mb"));
      }
    }
  }

  /** VmRSS of {@code pid} from {@code /proc}, 0 if it cannot be read (process gone). */
  public static long residentBytes(long pid) {
    try (Stream<String> lines = Files.lines(Path.of("/proc", Long.toString(pid), "status"))) {
      return lines
          .filter(l -> l.startsWith("VmRSS:"))
          .findFirst()
          .map(l -> Long.parseLong(l.replaceAll("[^0-9]", "")) << 10)
          .orElse(0L);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Kills {@code process} for a statement that did not stop in time. */
  void killForOverrun(EngineProcess process, String why) {
    if (process.alive()) {
      stopKills.incrementAndGet();
      LOG.warn("{} killed: {}", process, why);
    }
    process.kill(
        new LakeException(
            ErrorCode.OVERLOADED,
            "The engine process running this tenant's statements was restarted because another"
                + " of its statements "
                + why
                + "; retry"));
  }

  ScheduledFuture<?> schedule(Runnable task, Duration delay) {
    return timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  void background(Runnable task) {
    workers.execute(task);
  }

  /** Sampled figures of the live processes, for meters and tests. */
  public Figures figures() {
    long rss = 0;
    long peak = 0;
    for (EngineProcess p : live) {
      rss += p.rssBytes();
      peak = Math.max(peak, p.peakRssBytes());
    }
    return new Figures(
        live.size(), started.get(), breaches.get(), stopKills.get(), rss, peak, leases.running());
  }

  /**
   * @param live engine processes running now (slots in use plus the spare)
   * @param started processes started since this supervisor began
   * @param ceilingKills processes killed past their memory ceiling
   * @param overrunKills processes killed because a statement did not stop within the grace
   * @param residentBytes their resident sets summed (last samples)
   * @param peakResidentBytes the largest resident set any process had
   * @param runningStatements statements (and plans) holding a slot now
   */
  public record Figures(
      int live,
      int started,
      long ceilingKills,
      long overrunKills,
      long residentBytes,
      long peakResidentBytes,
      int runningStatements) {}

  /** Process ids of the live processes, oldest first (tests). */
  List<Long> pids() {
    return live.stream()
        .sorted(Comparator.comparingInt(EngineProcess::id))
        .map(EngineProcess::pid)
        .toList();
  }

  Iterable<EngineProcess> live() {
    return live;
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    LakeException shutdown =
        new LakeException(ErrorCode.OVERLOADED, "The engine is shutting down; retry later");
    for (EngineProcess p : live) {
      p.kill(shutdown);
    }
    for (EngineProcess p : List.copyOf(live)) {
      try {
        p.process().waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    timer.shutdownNow();
    workers.shutdownNow();
    deleteTree(directory);
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | java.io.UncheckedIOException e) {
      LOG.debug("engine directory {} not removed: {}", root, e.toString());
    }
  }
}
