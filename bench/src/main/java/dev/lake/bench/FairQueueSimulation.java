package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;

/**
 * A discrete-event simulation of lake's durable tier on SQS: workers taking job messages from one
 * standard queue, the per-tenant execution lease (a worker that receives a job of a tenant at its
 * running cap defers it: the message is sent again with the retry delay and deleted), and one
 * tenant submitting {@code greedyFactor} times as many jobs as each other tenant. It measures each
 * tenant's queue wait (submission to the start of its run, deferrals included) with the queue
 * handing out the oldest visible message first (a standard queue without message groups, SQS's
 * best-effort order) and with SQS fair-queue delivery as documented for messages whose {@code
 * MessageGroupId} is the tenant: a tenant is noisy when it holds more than 10% of the in-flight
 * messages and at least 30 of them, or more than 10% of the consumers' recent processing time;
 * while a quiet tenant has a visible message, consumers get quiet tenants' messages first (oldest
 * first); among noisy tenants the one with the fewest in-flight messages goes first.
 *
 * <p>A simulation, because the emulator (moto) accepts and returns {@code MessageGroupId} but does
 * not reorder deliveries. Assumptions it adds: "recent" processing time decays with a 60 s time
 * constant; a deferral occupies its worker for {@code deferCost}; job run times are exponential.
 * Virtual time, seeded: a run is exact and repeatable, and takes well under a second.
 */
final class FairQueueSimulation {
  /**
   * @param workers consumers (Lambda: the event source's maximum concurrency)
   * @param perTenantCap {@code --worker-max-running-per-tenant}
   * @param retryDelay {@code WorkerConfig.retryDelay}, the deferral's delay
   * @param deferCost worker time one deferral takes (read, refused lease write, send, delete)
   * @param meanJob mean run time of a job
   * @param politeTenants tenants submitting at the base rate
   * @param greedyFactor how many times the base rate the one greedy tenant submits
   * @param load offered work as a fraction of the workers' capacity (all tenants together)
   * @param length how long jobs are submitted; the run then continues until every job started
   * @param seed the random seed
   */
  record Config(
      int workers,
      int perTenantCap,
      Duration retryDelay,
      Duration deferCost,
      Duration meanJob,
      int politeTenants,
      int greedyFactor,
      double load,
      Duration length,
      long seed) {
    Config {
      requireNonNull(retryDelay, "retryDelay is null");
      requireNonNull(deferCost, "deferCost is null");
      requireNonNull(meanJob, "meanJob is null");
      requireNonNull(length, "length is null");
      if (workers < 1 || perTenantCap < 1 || politeTenants < 1 || greedyFactor < 1 || load <= 0) {
        throw new IllegalArgumentException("workers, cap, tenants, factor and load must be > 0");
      }
    }

    /** The stack's defaults: 10 workers, cap 8, 5 s retry delay; 4 polite tenants, 10x greedy. */
    static Config defaults(double load) {
      return new Config(
          10,
          8,
          Duration.ofSeconds(5),
          Duration.ofMillis(50),
          Duration.ofSeconds(30),
          4,
          10,
          load,
          Duration.ofHours(4),
          20261207L);
    }
  }

  /** One tenant's outcome: jobs run, queue wait p50/p95 in seconds, deferrals of its messages. */
  record TenantWaits(
      String tenant, int jobs, double p50Seconds, double p95Seconds, long deferrals) {}

  static final String GREEDY = "greedy";
  private static final double SHARE_TAU_MS = 60_000;

  private final Config config;
  private final boolean fair;
  private final Random random;
  private final PriorityQueue<Event> events =
      new PriorityQueue<>(
          (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
  private final Map<String, Tenant> tenants = new LinkedHashMap<>();
  private long now;
  private long seq;
  private int idleWorkers;

  private FairQueueSimulation(Config config, boolean fair) {
    this.config = config;
    this.fair = fair;
    this.random = new Random(config.seed());
    this.idleWorkers = config.workers();
  }

  /** Each tenant's waits ({@code greedy} first), with fair-queue delivery or without. */
  static List<TenantWaits> run(Config config, boolean fair) {
    return new FairQueueSimulation(config, fair).simulate();
  }

  private List<TenantWaits> simulate() {
    // base rate: offered work = load x capacity, split 1 : ... : 1 : greedyFactor
    double capacityPerMs = config.workers() / (double) config.meanJob().toMillis();
    double basePerMs =
        config.load() * capacityPerMs / (config.politeTenants() + config.greedyFactor());
    tenants.put(GREEDY, new Tenant(GREEDY, basePerMs * config.greedyFactor()));
    for (int i = 1; i <= config.politeTenants(); i++) {
      String name = "polite-" + i;
      tenants.put(name, new Tenant(name, basePerMs));
    }
    for (Tenant t : tenants.values()) {
      schedule(nextArrival(t), () -> arrive(t));
    }
    while (!events.isEmpty()) {
      Event e = events.poll();
      decayShares(e.at);
      now = e.at;
      e.action.run();
      dispatch();
    }
    List<TenantWaits> out = new ArrayList<>();
    for (Tenant t : tenants.values()) {
      double[] w = t.waits.stream().mapToDouble(Long::doubleValue).map(ms -> ms / 1000).toArray();
      Stats s = Stats.of(w);
      out.add(new TenantWaits(t.name, w.length, s.median(), s.p95(), t.deferrals));
    }
    return out;
  }

  private void arrive(Tenant t) {
    // the run time is drawn with the arrival, so both modes see exactly the same jobs
    long run = (long) Math.ceil(-Math.log(1 - random.nextDouble()) * config.meanJob().toMillis());
    enqueue(new Message(t, now, run), now);
    long next = nextArrival(t);
    if (next < config.length().toMillis()) {
      schedule(next, () -> arrive(t));
    }
  }

  private long nextArrival(Tenant t) {
    return now + (long) Math.ceil(-Math.log(1 - random.nextDouble()) / t.ratePerMs);
  }

  /** The message becomes visible at {@code visibleAt} with a new place in the send order. */
  private void enqueue(Message m, long visibleAt) {
    Message sent = new Message(m.tenant, m.submittedAt, m.runMillis);
    schedule(
        visibleAt,
        () -> {
          sent.order = seq++;
          sent.tenant.visible.add(sent);
        });
  }

  private void dispatch() {
    while (idleWorkers > 0) {
      Tenant t = fair ? fairPick() : oldestPick();
      if (t == null) {
        return;
      }
      Message m = t.visible.poll();
      idleWorkers--;
      t.inFlight++;
      t.busy++;
      if (t.running >= config.perTenantCap()) {
        // the lease is full: defer (send again after the retry delay, delete this delivery)
        t.deferrals++;
        long done = now + config.deferCost().toMillis();
        enqueue(m, done + config.retryDelay().toMillis());
        schedule(done, () -> release(t));
      } else {
        t.running++;
        t.waits.add(now - m.submittedAt);
        schedule(
            now + m.runMillis,
            () -> {
              t.running--;
              release(t);
            });
      }
    }
  }

  private void release(Tenant t) {
    t.inFlight--;
    t.busy--;
    idleWorkers++;
  }

  /** A standard queue without groups: the message that became visible first. */
  private Tenant oldestPick() {
    Tenant best = null;
    for (Tenant t : tenants.values()) {
      if (!t.visible.isEmpty()
          && (best == null || t.visible.peek().order < best.visible.peek().order)) {
        best = t;
      }
    }
    return best;
  }

  /** SQS fair-queue delivery as documented (see the class comment). */
  private Tenant fairPick() {
    int inFlight = tenants.values().stream().mapToInt(t -> t.inFlight).sum();
    double busy = tenants.values().stream().mapToDouble(t -> t.share).sum();
    Tenant quiet = null;
    Tenant noisy = null;
    for (Tenant t : tenants.values()) {
      if (t.visible.isEmpty()) {
        continue;
      }
      boolean isNoisy =
          (t.inFlight > 0.1 * inFlight && t.inFlight >= 30) || (busy > 0 && t.share > 0.1 * busy);
      if (!isNoisy) {
        if (quiet == null || t.visible.peek().order < quiet.visible.peek().order) {
          quiet = t;
        }
      } else if (noisy == null
          || t.inFlight < noisy.inFlight
          || (t.inFlight == noisy.inFlight
              && t.visible.peek().order < noisy.visible.peek().order)) {
        noisy = t;
      }
    }
    return quiet != null ? quiet : noisy;
  }

  /** Each tenant's recent processing time: busy workers integrated with a 60 s decay. */
  private void decayShares(long at) {
    if (at <= now) {
      return;
    }
    double decay = Math.exp(-(at - now) / SHARE_TAU_MS);
    for (Tenant t : tenants.values()) {
      t.share = t.share * decay + t.busy * SHARE_TAU_MS * (1 - decay);
    }
  }

  private void schedule(long at, Runnable action) {
    events.add(new Event(at, seq++, action));
  }

  private record Event(long at, long seq, Runnable action) {}

  private static final class Message {
    final Tenant tenant;
    final long submittedAt;
    final long runMillis;
    long order;

    Message(Tenant tenant, long submittedAt, long runMillis) {
      this.tenant = tenant;
      this.submittedAt = submittedAt;
      this.runMillis = runMillis;
    }
  }

  private static final class Tenant {
    final String name;
    final double ratePerMs;
    final ArrayDeque<Message> visible = new ArrayDeque<>();
    final List<Long> waits = new ArrayList<>();
    int running;
    int inFlight;
    int busy;
    long deferrals;
    double share;

    Tenant(String name, double ratePerMs) {
      this.name = name;
      this.ratePerMs = ratePerMs;
    }
  }

  /** Prints the table docs/async.md quotes: every tenant's waits, with and without fair queues. */
  public static void main(String[] args) {
    double[] loads = args.length == 0 ? new double[] {0.8, 1.0, 1.1} : parse(args);
    System.out.println(
        "| offered load | tenant | jobs | wait p50 / p95 (s), oldest first | wait p50 / p95 (s),"
            + " fair queue | deferrals (oldest / fair) |");
    System.out.println("|---|---|---|---|---|---|");
    for (double load : loads) {
      Config c = Config.defaults(load);
      List<TenantWaits> plain = run(c, false);
      List<TenantWaits> fairWaits = run(c, true);
      for (int i = 0; i < plain.size(); i++) {
        TenantWaits a = plain.get(i);
        TenantWaits b = fairWaits.get(i);
        System.out.printf(
            Locale.ROOT,
            "| %.1f | %s | %d | %.1f / %.1f | %.1f / %.1f | %d / %d |%n",
            load,
            a.tenant(),
            a.jobs(),
            a.p50Seconds(),
            a.p95Seconds(),
            b.p50Seconds(),
            b.p95Seconds(),
            a.deferrals(),
            b.deferrals());
      }
    }
  }

  private static double[] parse(String[] args) {
    double[] out = new double[args.length];
    for (int i = 0; i < args.length; i++) {
      out[i] = Double.parseDouble(args[i]);
    }
    return out;
  }
}
