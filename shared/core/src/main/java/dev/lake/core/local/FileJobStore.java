package dev.lake.core.local;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobCodec;
import dev.lake.core.job.JobLimits;
import dev.lake.core.job.JobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Stream;

/**
 * The embedded job store: one JSON file per job, replaced by atomic rename while holding both a JVM
 * monitor and an exclusive file lock, so several processes sharing the directory (a server and a
 * {@code lake worker}) see linearizable compare-and-set. Local writes are never ambiguous, so this
 * store only answers {@code Applied}, {@code Conflict} or {@code Refused}. Like every port it
 * throws only {@link LakeException}: a file that cannot be read or written (a full disk, a broken
 * file) is {@code EXTERNAL_UNAVAILABLE}, a dependency failure that callers retry or report as such,
 * never an internal error.
 *
 * <p>The accounting of {@link JobLimits} lives in {@code .ledger.json}, read and rewritten under
 * the same lock after each job write; it is derived data, rebuilt from the job records whenever a
 * store is opened (so a process killed between the two writes leaves no leak behind). A write that
 * a full bound would refuse first ends the set's expired, unfinished jobs ({@link Job#expire}), so
 * a job nothing will run any more (a worker died, its message was dropped) frees its places at
 * once, not at the next {@link #sweepExpired} — as the DynamoDB store does.
 */
public final class FileJobStore implements JobStore {
  private final Path dir;
  private final Path lockFile;
  private final Path ledgerFile;

  /**
   * One monitor per job directory for the whole JVM: a file lock belongs to the process, so two
   * stores over one directory in the same JVM (a server and a test's own view of its jobs) must
   * take turns before locking, or the second lock attempt fails with OverlappingFileLockException.
   */
  private static final ConcurrentMap<Path, Object> MONITORS = new ConcurrentHashMap<>();

  private final Object monitor;
  private final Clock clock;

  public FileJobStore(Path dir) {
    this(dir, Clock.systemUTC());
  }

  /** With the clock that decides which jobs have expired. */
  public FileJobStore(Path dir, Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
    this.dir = requireNonNull(dir, "dir is null").toAbsolutePath();
    this.lockFile = this.dir.resolve(".lock");
    this.ledgerFile = this.dir.resolve(".ledger.json");
    this.monitor = MONITORS.computeIfAbsent(this.dir.normalize(), d -> new Object());
    try {
      Files.createDirectories(this.dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create job directory", e);
    }
    locked(
        () -> {
          JobLedger ledger = new JobLedger();
          for (String id : ids()) {
            read(id).ifPresent(ledger::apply);
          }
          writeLedger(ledger);
          return null;
        });
  }

  @Override
  public CreateResult createIfAbsent(Job job, JobLimits limits) {
    requireNonNull(job, "job is null");
    requireNonNull(limits, "limits is null");
    return locked(
        () -> {
          Optional<Job> existing = read(job.id());
          if (existing.isPresent()) {
            return new CreateResult.Existing(existing.get());
          }
          JobLedger ledger = readLedger();
          Optional<JobLimits.Reached> over = checkEndingExpired(ledger, job, limits);
          if (over.isPresent()) {
            return new CreateResult.Refused(over.get());
          }
          write(job);
          ledger.apply(job);
          writeLedger(ledger);
          changed();
          return new CreateResult.Created(job);
        });
  }

  @Override
  public Optional<Job> find(String id) {
    return read(checkId(id));
  }

  @Override
  public CasResult compareAndSet(long expectedVersion, Job next, JobLimits limits) {
    JobStore.checkCas(expectedVersion, next);
    requireNonNull(limits, "limits is null");
    return locked(
        () -> {
          Job current =
              read(next.id())
                  .orElseThrow(() -> new IllegalStateException("no job " + next.id() + " to CAS"));
          if (current.version() != expectedVersion) {
            return new CasResult.Conflict(current);
          }
          JobLedger ledger = readLedger();
          Optional<JobLimits.Reached> over = checkEndingExpired(ledger, next, limits);
          if (over.isPresent()) {
            return new CasResult.Refused(current, over.get());
          }
          write(next);
          ledger.apply(next);
          writeLedger(ledger);
          changed();
          return new CasResult.Applied(next);
        });
  }

  /**
   * The bound writing {@code next} would exceed, after ending the expired, unfinished jobs that
   * hold the full set (each a terminal write, applied to {@code ledger}). Called under the lock.
   */
  private Optional<JobLimits.Reached> checkEndingExpired(
      JobLedger ledger, Job next, JobLimits limits) throws IOException {
    Optional<JobLimits.Reached> over = ledger.check(next, limits);
    if (over.isEmpty()) {
      return over;
    }
    Instant now = clock.instant();
    boolean ended = false;
    for (String id : ledger.holders(over.get())) {
      Optional<Job> held = read(id);
      if (held.isPresent() && !held.get().state().terminal() && held.get().expired(now)) {
        Job expired = held.get().expire(now);
        write(expired);
        ledger.apply(expired);
        ended = true;
      }
    }
    if (!ended) {
      return over;
    }
    writeLedger(ledger);
    changed();
    return ledger.check(next, limits);
  }

  /** Guards {@link #awaitChange}: every write of this instance wakes its waiters. */
  private final Object changes = new Object();

  private void changed() {
    synchronized (changes) {
      changes.notifyAll();
    }
  }

  @Override
  public void awaitChange(String id, long version, java.time.Duration max)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    synchronized (changes) {
      while (true) {
        Optional<Job> job = find(id);
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (job.isEmpty() || job.get().version() != version || left <= 0) {
          return;
        }
        // Another process may write the directory too: never wait long without re-reading.
        changes.wait(Math.min(left, 500));
      }
    }
  }

  /** Deletes job records whose expiry passed; returns how many. Local-mode sweeping. */
  public int sweepExpired(Instant now) {
    return locked(
        () -> {
          int removed = 0;
          JobLedger ledger = readLedger();
          for (String id : ids()) {
            Optional<Job> job = read(id);
            if (job.isPresent() && job.get().expired(now)) {
              Files.deleteIfExists(file(id));
              ledger.remove(job.get());
              removed++;
            }
          }
          writeLedger(ledger);
          return removed;
        });
  }

  /** Every stored job id, for local recovery (re-enqueue unfinished jobs after a restart). */
  public List<String> ids() {
    try (Stream<Path> files = Files.list(dir)) {
      List<String> out = new ArrayList<>();
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".json") && !n.startsWith("."))
          .forEach(n -> out.add(n.substring(0, n.length() - ".json".length())));
      out.sort(null);
      return out;
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  @Override
  public JobLimits.Usage usage(String tenant) {
    requireNonNull(tenant, "tenant is null");
    return locked(() -> readLedger().usage(tenant));
  }

  private JobLedger readLedger() throws IOException {
    try {
      return JobLedger.fromBytes(Files.readAllBytes(ledgerFile));
    } catch (NoSuchFileException e) {
      return new JobLedger();
    }
  }

  private void writeLedger(JobLedger ledger) throws IOException {
    replace(ledgerFile, ledger.toBytes());
  }

  private Optional<Job> read(String id) {
    try {
      return Optional.of(JobCodec.fromBytes(Files.readAllBytes(file(id))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  private void write(Job job) throws IOException {
    replace(file(job.id()), JobCodec.toBytes(job));
  }

  /** Replaces {@code target} by atomic rename: readers see the old or the new bytes. */
  private void replace(Path target, byte[] bytes) throws IOException {
    Path tmp = Files.createTempFile(dir, ".write", ".tmp");
    try {
      Files.write(tmp, bytes);
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private Path file(String id) {
    return dir.resolve(checkId(id) + ".json");
  }

  private static String checkId(String id) {
    requireNonNull(id, "id is null");
    if (!id.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new IllegalArgumentException("invalid job id");
    }
    return id;
  }

  private <T> T locked(LocalFiles.IoAction<T> action) {
    synchronized (monitor) {
      try {
        return LocalFiles.locked(lockFile, action);
      } catch (IOException e) {
        throw unavailable(e);
      }
    }
  }

  private static LakeException unavailable(IOException e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The local job store is unavailable; retry later", e);
  }
}
