package dev.lake.bench;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Samples this process every 20 ms: heap in use, direct memory (NIO buffer pools plus Netty's
 * counter, which is where Arrow and gRPC allocate) and resident set size from /proc. Keeps peaks.
 */
final class MemorySampler implements AutoCloseable {
  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;
  private volatile long peakHeap;
  private volatile long peakDirect;
  private volatile long peakHeapPlusDirect;
  private volatile long peakRss;

  MemorySampler() {
    thread = new Thread(this::loop, "bench-memory-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running.get()) {
      sample();
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sample() {
    long heap = memory.getHeapMemoryUsage().getUsed();
    long direct = directBytes();
    peakHeap = Math.max(peakHeap, heap);
    peakDirect = Math.max(peakDirect, direct);
    peakHeapPlusDirect = Math.max(peakHeapPlusDirect, heap + direct);
    peakRss = Math.max(peakRss, rssBytes());
  }

  static long directBytes() {
    long nio = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      nio += Math.max(0, pool.getMemoryUsed());
    }
    long netty = 0;
    try {
      netty = Math.max(0, io.netty.util.internal.PlatformDependent.usedDirectMemory());
    } catch (LinkageError e) {
      // Netty absent: NIO pools only
    }
    return nio + netty;
  }

  /** VmRSS of this process, or 0 where /proc is missing. */
  static long rssBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (Exception e) {
      return 0;
    }
    return 0;
  }

  long peakHeap() {
    return peakHeap;
  }

  long peakDirect() {
    return peakDirect;
  }

  long peakHeapPlusDirect() {
    return peakHeapPlusDirect;
  }

  long peakRss() {
    return peakRss;
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    thread.interrupt();
    thread.join();
    sample();
  }
}
