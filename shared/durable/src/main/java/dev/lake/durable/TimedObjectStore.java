package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An object store that adds the time spent writing (streaming uploads: every write, flush, close
 * and the completion; small puts) to a counter, so an attempt can tell its upload time from its
 * execution time (the two interleave: parts are uploaded while the engine produces the next
 * batches). Reads and deletes pass through untimed.
 */
final class TimedObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final AtomicLong writeNanos = new AtomicLong();

  TimedObjectStore(ObjectStore delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  /** Nanoseconds spent writing so far. */
  long writeNanos() {
    return writeNanos.get();
  }

  @Override
  public Upload create(String key) {
    long start = System.nanoTime();
    Upload upload = delegate.create(key);
    writeNanos.addAndGet(System.nanoTime() - start);
    OutputStream timed = new TimedStream(upload.stream());
    return new Upload() {
      @Override
      public OutputStream stream() {
        return timed;
      }

      @Override
      public void complete() {
        long t = System.nanoTime();
        try {
          upload.complete();
        } finally {
          writeNanos.addAndGet(System.nanoTime() - t);
        }
      }

      @Override
      public void close() {
        upload.close();
      }
    };
  }

  @Override
  public boolean put(String key, byte[] bytes, boolean overwrite) {
    long start = System.nanoTime();
    try {
      return delegate.put(key, bytes, overwrite);
    } finally {
      writeNanos.addAndGet(System.nanoTime() - start);
    }
  }

  @Override
  public Optional<InputStream> find(String key) {
    return delegate.find(key);
  }

  @Override
  public InputStream getRange(String key, long offset, long length) {
    return delegate.getRange(key, offset, length);
  }

  @Override
  public Optional<Long> size(String key) {
    return delegate.size(key);
  }

  @Override
  public List<String> list(String prefix) {
    return delegate.list(prefix);
  }

  @Override
  public void delete(String key) {
    delegate.delete(key);
  }

  /** An output step that may fail with an I/O error. */
  private interface Step {
    void run() throws IOException;
  }

  private void timed(Step step) throws IOException {
    long t = System.nanoTime();
    try {
      step.run();
    } finally {
      writeNanos.addAndGet(System.nanoTime() - t);
    }
  }

  private final class TimedStream extends OutputStream {
    private final OutputStream out;

    TimedStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      timed(() -> out.write(b));
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      timed(() -> out.write(b, off, len));
    }

    @Override
    public void flush() throws IOException {
      timed(out::flush);
    }

    @Override
    public void close() throws IOException {
      timed(out::close);
    }
  }
}
