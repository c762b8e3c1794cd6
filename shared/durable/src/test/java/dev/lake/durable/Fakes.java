package dev.lake.durable;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.Snapshot;
import dev.lake.core.TableRef;
import dev.lake.core.TableResolver;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Hand-written stand-ins for our own ports (never for AWS). */
public final class Fakes {
  private Fakes() {}

  /** A "lake" catalog whose sealed snapshots are valid unless marked gone. */
  static final class Resolver implements TableResolver {
    final Set<TableRef> gone = ConcurrentHashMap.newKeySet();

    @Override
    public String catalog() {
      return TableRef.LAKE;
    }

    @Override
    public Snapshot resolve(TableRef ref) {
      throw LakeException.tableNotFound(ref);
    }

    @Override
    public List<TableRef> listTables() {
      return List.of();
    }

    @Override
    public void verify(TableRef ref, Snapshot sealed) {
      if (gone.contains(ref)) {
        throw new LakeException(
            ErrorCode.SNAPSHOT_GONE,
            "Table " + ref + " at " + sealed.describe() + " is no longer available");
      }
    }
  }

  /** Wraps a real ObjectStore; while armed, upload streams fail after a number of bytes. */
  public static final class FailingObjectStore implements ObjectStore {
    private final ObjectStore delegate;
    public final AtomicInteger failuresLeft = new AtomicInteger();
    volatile long failAfterBytes = 1_000;

    FailingObjectStore(ObjectStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public Upload create(String key) {
      Upload real = delegate.create(key);
      boolean fail = failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
      OutputStream out =
          new OutputStream() {
            long written;

            @Override
            public void write(int b) throws IOException {
              write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
              if (fail && written + len > failAfterBytes) {
                throw new IOException("injected object store failure");
              }
              written += len;
              real.stream().write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
              real.stream().flush();
            }
          };
      return new Upload() {
        @Override
        public OutputStream stream() {
          return out;
        }

        @Override
        public void complete() {
          real.complete();
        }

        @Override
        public void close() {
          real.close();
        }
      };
    }

    @Override
    public boolean put(String key, byte[] bytes, boolean overwrite) {
      return delegate.put(key, bytes, overwrite);
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
  }
}
