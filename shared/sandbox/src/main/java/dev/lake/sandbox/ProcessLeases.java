package dev.lake.sandbox;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Hands engine-process slots to tenants as the in-process engine hands out its memory pools: a slot
 * runs the statements of one tenant at a time (all of that tenant's statements while any runs), so
 * a process killed for one tenant's statement fails only that tenant's statements. A tenant without
 * a running statement takes a free slot, preferring the one it used last (its snapshot-cache copies
 * are in that process), else the one idle longest; when every slot runs other tenants' statements
 * it waits, at most the given time, then {@code OVERLOADED}.
 */
final class ProcessLeases {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition freed = lock.newCondition();
  private final String[] owner;
  private final int[] running;
  private final String[] lastOwner;
  private final long[] idleSince;
  private long ticks;

  ProcessLeases(int slots) {
    owner = new String[slots];
    running = new int[slots];
    lastOwner = new String[slots];
    idleSince = new long[slots];
  }

  int size() {
    return owner.length;
  }

  /** A slot for {@code tenant}; release it with {@link #release}. */
  int acquire(String tenant, Duration maxWait) {
    long nanos = maxWait.toNanos();
    lock.lock();
    try {
      while (true) {
        int slot = choose(tenant);
        if (slot >= 0) {
          owner[slot] = tenant;
          lastOwner[slot] = tenant;
          running[slot]++;
          return slot;
        }
        if (nanos <= 0) {
          throw new LakeException(
              ErrorCode.OVERLOADED,
              "Server busy: all "
                  + owner.length
                  + " engine processes are running other tenants' statements; retry later");
        }
        nanos = freed.awaitNanos(nanos);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException(ErrorCode.CANCELLED, "Interrupted while waiting for an engine");
    } finally {
      lock.unlock();
    }
  }

  private int choose(String tenant) {
    int free = -1;
    for (int i = 0; i < owner.length; i++) {
      if (tenant.equals(owner[i])) {
        return i;
      }
    }
    for (int i = 0; i < owner.length; i++) {
      if (owner[i] == null) {
        if (tenant.equals(lastOwner[i])) {
          return i;
        }
        if (free < 0 || idleSince[i] < idleSince[free]) {
          free = i;
        }
      }
    }
    return free;
  }

  void release(int slot) {
    lock.lock();
    try {
      if (--running[slot] == 0) {
        owner[slot] = null;
        idleSince[slot] = ++ticks;
        freed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Leases held now over every slot (for meters and tests). */
  int running() {
    lock.lock();
    try {
      int sum = 0;
      for (int r : running) {
        sum += r;
      }
      return sum;
    } finally {
      lock.unlock();
    }
  }
}
