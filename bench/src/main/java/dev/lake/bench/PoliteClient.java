package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import dev.lake.bench.LoadRecorder.Phase;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;

/**
 * A well-behaved tenant's client: small TPC-H queries (a lookup, a Q1-style aggregate over
 * lineitem, a group-by over orders) in a closed loop with a think time; each request is
 * GetFlightInfo plus a full drain of its DoGet, timed end to end and recorded under the phase it
 * started in. Runs until {@code stop} opens, at most {@code maxIterations} requests per phase.
 */
final class PoliteClient implements Runnable {
  /** The polite statements, rotated; {@code %d} makes texts differ across clients and runs. */
  static final List<String> QUERIES =
      List.of(
          "SELECT n_name, r_name FROM lake.tpch.nation JOIN lake.tpch.region"
              + " ON n_regionkey = r_regionkey WHERE n_nationkey = %d %% 25",
          "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS qty, count(*) + %d * 0 AS n"
              + " FROM lake.tpch.lineitem WHERE l_shipdate <= DATE '1998-09-02'"
              + " GROUP BY 1, 2 ORDER BY 1, 2",
          "SELECT o_orderpriority, count(*) AS n FROM lake.tpch.orders"
              + " WHERE o_orderkey %% 7 <> %d %% 7 GROUP BY 1 ORDER BY 1");

  private final FlightSqlClient client;
  private final CallOption auth;
  private final int id;
  private final Supplier<Phase> phase;
  private final CountDownLatch stop;
  private final LoadRecorder recorder;
  private final LoadConfig config;

  PoliteClient(
      FlightSqlClient client,
      CallOption auth,
      int id,
      Supplier<Phase> phase,
      CountDownLatch stop,
      LoadRecorder recorder,
      LoadConfig config) {
    this.client = requireNonNull(client, "client is null");
    this.auth = requireNonNull(auth, "auth is null");
    this.id = id;
    this.phase = requireNonNull(phase, "phase is null");
    this.stop = requireNonNull(stop, "stop is null");
    this.recorder = requireNonNull(recorder, "recorder is null");
    this.config = requireNonNull(config, "config is null");
  }

  @Override
  public void run() {
    Phase current = phase.get();
    int inPhase = 0;
    for (long n = 0; stop.getCount() > 0; n++) {
      Phase now = phase.get();
      if (now != current) {
        current = now;
        inPhase = 0;
      }
      if (now == Phase.DONE || inPhase >= config.maxIterations()) {
        if (await(config.thinkTime().toMillis() + 1)) {
          return;
        }
        continue;
      }
      inPhase++;
      String sql = String.format(QUERIES.get((int) (n % QUERIES.size())), id * 1_000_000 + n);
      long t0 = System.nanoTime();
      String status = "OK";
      try {
        FlightInfo info = client.execute(sql, auth);
        for (FlightEndpoint endpoint : info.getEndpoints()) {
          try (FlightStream stream = client.getStream(endpoint.getTicket(), auth)) {
            while (stream.next()) {
              // drain: the latency includes every batch
            }
          }
        }
      } catch (Exception e) {
        status = LoadRecorder.status(e);
      }
      recorder.polite(now, (System.nanoTime() - t0) / 1e6, status);
      if (!config.thinkTime().isZero() && await(config.thinkTime().toMillis())) {
        return;
      }
    }
  }

  /** Waits up to {@code millis}; true when the run is over. */
  private boolean await(long millis) {
    try {
      return stop.await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }
}
