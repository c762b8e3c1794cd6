package dev.lake.core.local;

import static java.util.Objects.requireNonNull;

import dev.lake.core.job.Job;
import dev.lake.core.job.JobCodec;
import dev.lake.core.job.JobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The embedded job store: one JSON file per job, replaced by atomic rename while holding both a JVM
 * monitor and an exclusive file lock, so several processes sharing the directory (a server and a
 * {@code lake worker}) see linearizable compare-and-set. Local writes are never ambiguous, so this
 * store only answers {@code Applied} or {@code Conflict}.
 */
public final class FileJobStore implements JobStore {
  private final Path dir;
  private final Path lockFile;
  private final Object monitor = new Object();

  public FileJobStore(Path dir) {
    this.dir = requireNonNull(dir, "dir is null").toAbsolutePath();
    this.lockFile = this.dir.resolve(".lock");
    try {
      Files.createDirectories(this.dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create job directory", e);
    }
  }

  @Override
  public CreateResult createIfAbsent(Job job) {
    requireNonNull(job, "job is null");
    return locked(
        () -> {
          Optional<Job> existing = read(job.id());
          if (existing.isPresent()) {
            return new CreateResult.Existing(existing.get());
          }
          write(job);
          changed();
          return new CreateResult.Created(job);
        });
  }

  @Override
  public Optional<Job> find(String id) {
    return read(checkId(id));
  }

  @Override
  public CasResult compareAndSet(long expectedVersion, Job next) {
    JobStore.checkCas(expectedVersion, next);
    return locked(
        () -> {
          Job current =
              read(next.id())
                  .orElseThrow(() -> new IllegalStateException("no job " + next.id() + " to CAS"));
          if (current.version() != expectedVersion) {
            return new CasResult.Conflict(current);
          }
          write(next);
          changed();
          return new CasResult.Applied(next);
        });
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
          for (String id : ids()) {
            Optional<Job> job = read(id);
            if (job.isPresent() && job.get().expired(now)) {
              Files.deleteIfExists(file(id));
              removed++;
            }
          }
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
      throw new UncheckedIOException("cannot list jobs", e);
    }
  }

  private Optional<Job> read(String id) {
    try {
      return Optional.of(JobCodec.fromBytes(Files.readAllBytes(file(id))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read job " + id, e);
    }
  }

  private void write(Job job) throws IOException {
    Path tmp = Files.createTempFile(dir, ".job", ".tmp");
    try {
      Files.write(tmp, JobCodec.toBytes(job));
      Files.move(
          tmp, file(job.id()), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
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

  private interface IoSupplier<T> {
    T get() throws IOException;
  }

  private <T> T locked(IoSupplier<T> action) {
    synchronized (monitor) {
      try (FileChannel channel =
              FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock ignored = channel.lock()) {
        return action.get();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot update job store", e);
      }
    }
  }
}
