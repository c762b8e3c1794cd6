package dev.lake.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.arrow.flight.FlightRuntimeException;

/**
 * What a load-test run observed, thread-safe: polite latencies per phase, and outcomes (a Flight
 * status name, or {@code OK}) counted per actor — {@code polite/<phase>} or {@code
 * greedy/<behaviour>}.
 */
final class LoadRecorder {
  /** The measured phases; warm-up samples are dropped. */
  enum Phase {
    WARMUP,
    BASELINE,
    CONTENTION,
    DONE
  }

  private final Map<Phase, List<Double>> latencies = new ConcurrentHashMap<>();
  private final Map<String, Map<String, LongAdder>> outcomes = new ConcurrentHashMap<>();

  /** The status a failure shows a client: the Flight status code, else the exception's class. */
  static String status(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof FlightRuntimeException f) {
        return f.status().code().name();
      }
    }
    return "CLIENT_" + e.getClass().getSimpleName();
  }

  private final Map<Phase, LongAdder> completed = new ConcurrentHashMap<>();

  void polite(Phase phase, double millis, String status) {
    completed.computeIfAbsent(phase, p -> new LongAdder()).increment();
    if (phase == Phase.WARMUP || phase == Phase.DONE) {
      return;
    }
    count("polite/" + phase.name().toLowerCase(java.util.Locale.ROOT), status);
    if (status.equals("OK")) {
      latencies
          .computeIfAbsent(phase, p -> java.util.Collections.synchronizedList(new ArrayList<>()))
          .add(millis);
    }
  }

  /** Polite requests that started in {@code phase} and finished, whatever their outcome. */
  long completed(Phase phase) {
    LongAdder n = completed.get(phase);
    return n == null ? 0 : n.sum();
  }

  void greedy(GreedyClient.Behaviour behaviour, String status) {
    count("greedy/" + behaviour.name().toLowerCase(java.util.Locale.ROOT), status);
  }

  private void count(String actor, String status) {
    outcomes
        .computeIfAbsent(actor, a -> new ConcurrentHashMap<>())
        .computeIfAbsent(status, s -> new LongAdder())
        .increment();
  }

  /** Successful polite latencies of {@code phase}, sorted, in milliseconds. */
  double[] latencies(Phase phase) {
    List<Double> list = latencies.getOrDefault(phase, List.of());
    double[] sorted;
    synchronized (list) {
      sorted = list.stream().mapToDouble(Double::doubleValue).toArray();
    }
    Arrays.sort(sorted);
    return sorted;
  }

  /** Outcome counts by actor, then status, both sorted by name. */
  SortedMap<String, SortedMap<String, Long>> outcomes() {
    SortedMap<String, SortedMap<String, Long>> copy = new TreeMap<>();
    outcomes.forEach(
        (actor, statuses) -> {
          SortedMap<String, Long> s = new TreeMap<>();
          statuses.forEach((status, n) -> s.put(status, n.sum()));
          copy.put(actor, s);
        });
    return copy;
  }
}
