package dev.lake.core.local;

import static java.util.Objects.requireNonNull;

import dev.lake.core.job.JobQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The local-mode queue: in one process, with SQS semantics that matter to workers — a received
 * message is invisible for the visibility timeout and comes back unless acknowledged; every
 * delivery gets a new receipt and an old receipt no longer acknowledges. Not durable: after a
 * restart, unfinished jobs are re-enqueued from the job store.
 *
 * <p>Fair: receives go round-robin over the tenants with a visible message (in tenant-name order,
 * starting after the tenant served last), oldest message first within a tenant. However many jobs a
 * greedy tenant queued, another tenant's job is handed to the next free worker but one.
 */
public final class InProcessJobQueue implements JobQueue {
  private final Duration visibilityTimeout;
  private final Clock clock;
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  private String servedLast = "";

  private static final class Entry {
    final String jobId;
    final String tenant;
    Instant visibleAt;
    String receipt;
    int receiveCount;

    Entry(String jobId, String tenant, Instant visibleAt) {
      this.jobId = jobId;
      this.tenant = tenant;
      this.visibleAt = visibleAt;
    }
  }

  public InProcessJobQueue(Duration visibilityTimeout, Clock clock) {
    this.visibilityTimeout = requireNonNull(visibilityTimeout, "visibilityTimeout is null");
    this.clock = requireNonNull(clock, "clock is null");
    if (visibilityTimeout.isNegative() || visibilityTimeout.isZero()) {
      throw new IllegalArgumentException("visibilityTimeout must be positive");
    }
  }

  @Override
  public synchronized void send(String jobId, String tenant, Duration delay) {
    requireNonNull(jobId, "jobId is null");
    requireNonNull(tenant, "tenant is null");
    requireNonNull(delay, "delay is null");
    Instant now = clock.instant();
    if (entries.values().stream()
        .anyMatch(e -> e.jobId.equals(jobId) && !e.visibleAt.isAfter(now))) {
      return; // one waiting message per job: a duplicate would only be claimed and dropped
    }
    entries.put(UUID.randomUUID().toString(), new Entry(jobId, tenant, now.plus(delay)));
    notifyAll();
  }

  @Override
  public List<Message> receive(int max, Duration wait) {
    if (max < 1 || max > 10) {
      throw new IllegalArgumentException("max must be between 1 and 10: " + max);
    }
    long deadline = System.nanoTime() + wait.toNanos();
    synchronized (this) {
      while (true) {
        List<Message> out = take(max);
        long left = deadline - System.nanoTime();
        if (!out.isEmpty() || left <= 0) {
          return out;
        }
        try {
          // a short cap so messages becoming visible again are noticed without a send()
          wait(Math.max(1, Math.min(left / 1_000_000, 50)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return List.of();
        }
      }
    }
  }

  private List<Message> take(int max) {
    Instant now = clock.instant();
    // the oldest visible message of each tenant, then the next, ... in round-robin order
    TreeMap<String, ArrayDeque<Entry>> visible = new TreeMap<>();
    for (Entry e : entries.values()) {
      if (!e.visibleAt.isAfter(now)) {
        visible.computeIfAbsent(e.tenant, t -> new ArrayDeque<>()).add(e);
      }
    }
    List<Message> out = new ArrayList<>();
    while (out.size() < max && !visible.isEmpty()) {
      String tenant = visible.higherKey(servedLast);
      tenant = tenant == null ? visible.firstKey() : tenant;
      ArrayDeque<Entry> queue = visible.get(tenant);
      Entry e = queue.poll();
      if (queue.isEmpty()) {
        visible.remove(tenant);
      }
      servedLast = tenant;
      e.receiveCount++;
      e.receipt = UUID.randomUUID().toString();
      e.visibleAt = now.plus(visibilityTimeout);
      out.add(new Message(e.jobId, e.tenant, e.receipt, e.receiveCount));
    }
    return out;
  }

  @Override
  public synchronized void ack(Message message) {
    entries.values().removeIf(e -> message.receipt().equals(e.receipt));
  }

  @Override
  public synchronized void extendVisibility(Message message, Duration timeout) {
    find(message).ifPresent(e -> e.visibleAt = clock.instant().plus(timeout));
  }

  @Override
  public synchronized void nack(Message message, Duration delay) {
    find(message).ifPresent(e -> e.visibleAt = clock.instant().plus(delay));
    notifyAll();
  }

  /** Messages not yet acknowledged (visible or in flight). */
  public synchronized int size() {
    return entries.size();
  }

  private java.util.Optional<Entry> find(Message message) {
    requireNonNull(message, "message is null");
    return entries.values().stream().filter(e -> message.receipt().equals(e.receipt)).findFirst();
  }
}
