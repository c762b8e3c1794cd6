package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileJobStoreSharedDirectoryTest {
  @TempDir Path dir;

  @Test
  void storesOverOneDirectory_inOneJvm_takeTurnsInsteadOfFailingOnTheFileLock() throws Exception {
    // GIVEN four threads that each open stores over the same job directory at the same moment
    ExecutorService pool = Executors.newFixedThreadPool(4);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> opened = new ArrayList<>();
    try {
      for (int t = 0; t < 4; t++) {
        opened.add(
            pool.submit(
                () -> {
                  start.await();
                  int n = 0;
                  for (int i = 0; i < 25; i++) {
                    // opening rebuilds the ledger under the store lock
                    new FileJobStore(dir.resolve("jobs"));
                    n++;
                  }
                  return n;
                }));
      }
      // WHEN they all start
      start.countDown();
      // THEN every open succeeds (no OverlappingFileLockException)
      for (Future<Integer> f : opened) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(25);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
