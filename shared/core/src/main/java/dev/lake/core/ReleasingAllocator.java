package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.arrow.memory.AllocationListener;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A child allocator for memory whose last reference may be released after its owner is done: Arrow
 * buffers handed to gRPC for a zero-copy write (Netty releases them after writing, on its own
 * thread, possibly after the stream and its execution ended), and the C-data structs that keep such
 * buffers' native memory alive.
 *
 * <p>{@link #close} closes the allocator at once if nothing is held, else at the last release
 * (Arrow's leak check then still runs, when everything was returned). {@link #awaitDrained} waits
 * for that last release, woken by every release (no polling).
 */
public final class ReleasingAllocator implements AutoCloseable {
  private static final long RECHECK_NANOS = 100_000_000L;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition released = lock.newCondition();
  private final BufferAllocator allocator;
  private boolean closing;
  private boolean closed;

  private ReleasingAllocator(BufferAllocator parent, String name) {
    this.allocator = parent.newChildAllocator(name, new Released(), 0, parent.getLimit());
  }

  /** A child of {@code parent} named {@code name}, bounded by the parent's limit. */
  public static ReleasingAllocator childOf(BufferAllocator parent, String name) {
    requireNonNull(parent, "parent is null");
    requireNonNull(name, "name is null");
    return new ReleasingAllocator(parent, name);
  }

  /** The allocator to allocate from (or transfer buffers into). */
  public BufferAllocator allocator() {
    return allocator;
  }

  /** Bytes still held. */
  public long heldBytes() {
    return allocator.getAllocatedMemory();
  }

  /** Whether the allocator has closed (everything released after {@link #close}). */
  public boolean closed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until everything allocated here was released; false if that did not happen within {@code
   * bound}.
   */
  public boolean awaitDrained(Duration bound) throws InterruptedException {
    lock.lock();
    try {
      long deadline = System.nanoTime() + bound.toNanos();
      while (allocator.getAllocatedMemory() != 0) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        // woken by every release; the cap re-checks because Arrow moves the accounting of a shared
        // allocation back to another holder without calling this allocator's release listener
        released.awaitNanos(Math.min(remaining, RECHECK_NANOS));
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Closes the allocator now if nothing is held, else at the last release. */
  @Override
  public void close() {
    lock.lock();
    try {
      closing = true;
      closeIfDrained();
    } finally {
      lock.unlock();
    }
  }

  private void closeIfDrained() {
    if (closing && !closed && allocator.getAllocatedMemory() == 0) {
      closed = true;
      allocator.close();
    }
  }

  /** Wakes {@link #awaitDrained} and closes a closed allocator after the last release. */
  private final class Released implements AllocationListener {
    @Override
    public void onRelease(long size) {
      // called by Arrow after the bytes are accounted as released, on whichever thread released
      // the last reference (a Netty event loop after writing, or the owner's thread); Arrow holds
      // only the released buffer's own monitor here, and this lock is never held while releasing
      lock.lock();
      try {
        released.signalAll();
        closeIfDrained();
      } finally {
        lock.unlock();
      }
    }
  }
}
