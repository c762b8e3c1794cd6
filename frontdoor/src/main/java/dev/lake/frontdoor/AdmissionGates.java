package dev.lake.frontdoor;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds concurrent planning and streaming: a caller first takes a slot of its tenant's gate, then
 * one of the global FIFO, each with a bounded wait (fair semaphores serve waiters in arrival
 * order). A caller that cannot get both in time fails with {@link ErrorCode#OVERLOADED}. Tenants
 * come from the principals file or from JWTs the trusted provider signed: one small gate per tenant
 * seen, as many as the deployment's identities have tenants.
 */
final class AdmissionGates {
  private final int perTenant;
  private final long waitNanos;
  private final Semaphore global;
  private final ConcurrentHashMap<String, Semaphore> tenants = new ConcurrentHashMap<>();

  AdmissionGates(int global, int perTenant, Duration wait) {
    this.perTenant = perTenant;
    this.waitNanos = wait.toNanos();
    this.global = new Semaphore(global, true);
  }

  /** A held slot; closing it releases both gates exactly once. */
  interface Permit extends AutoCloseable {
    @Override
    void close();
  }

  Permit enter(String tenant) {
    long deadline = System.nanoTime() + waitNanos;
    Semaphore tenantGate = tenants.computeIfAbsent(tenant, t -> new Semaphore(perTenant, true));
    acquire(tenantGate, deadline);
    try {
      acquire(global, deadline);
    } catch (RuntimeException e) {
      tenantGate.release();
      throw e;
    }
    return new Permit() {
      private boolean released;

      @Override
      public synchronized void close() {
        if (!released) {
          released = true;
          global.release();
          tenantGate.release();
        }
      }
    };
  }

  int availableGlobal() {
    return global.availablePermits();
  }

  private static void acquire(Semaphore gate, long deadline) {
    try {
      if (!gate.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        throw new LakeException(ErrorCode.OVERLOADED, "Server busy, retry later");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LakeException(ErrorCode.CANCELLED, "Call cancelled while waiting for a slot");
    }
  }
}
