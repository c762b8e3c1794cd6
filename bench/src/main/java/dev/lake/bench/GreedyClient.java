package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import dev.lake.durable.SubmissionIds;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;

/**
 * One client of the greedy tenant, doing one hostile thing in a loop until {@code stop} opens (at
 * most {@code maxIterations} times). Every answer is recorded by its Flight status.
 */
final class GreedyClient implements Runnable {
  /** What a greedy client does. */
  enum Behaviour {
    /** Opens a huge stream, reads one batch and stops reading until the server cuts it. */
    SLOW_READER,
    /** CPU-bound statements (a self-join of lineitem, a count over 10^15 rows). */
    HEAVY_QUERY,
    /** Submits durable jobs as fast as it can, never collecting them. */
    JOB_SPAM,
    /** Statements over the text, list-length and ticket-size bounds. */
    OVERSIZED,
    /** An aggregate that wants several times the engine's memory limit (3 heavy deadlines). */
    MEMORY_HOG
  }

  static final String HUGE = "SELECT * FROM range(10000000000)";
  static final String[] HEAVY = {
    "SELECT count(*) FROM lake.tpch.lineitem a, lake.tpch.lineitem b, lake.tpch.lineitem c"
        + " WHERE a.l_orderkey + b.l_orderkey <> c.l_partkey",
    "SELECT count(*) FROM range(1000000000000000)"
  };

  /**
   * A list of 10^8 distinct strings of about 1 KiB each (100 GB): every row adds a KiB, so it meets
   * any engine memory limit within a few million rows.
   */
  static final String MEMORY_HOG =
      "SELECT list(s || range::VARCHAR) AS l FROM (SELECT '"
          + "x".repeat(1000)
          + "' AS s, range FROM range(100000000))";

  private final FlightClient flight;
  private final FlightSqlClient client;
  private final CallOption auth;
  private final Behaviour behaviour;
  private final CountDownLatch stop;
  private final LoadRecorder recorder;
  private final LoadConfig config;

  GreedyClient(
      FlightClient flight,
      CallOption auth,
      Behaviour behaviour,
      CountDownLatch stop,
      LoadRecorder recorder,
      LoadConfig config) {
    this.flight = requireNonNull(flight, "flight is null");
    this.client = new FlightSqlClient(flight);
    this.auth = requireNonNull(auth, "auth is null");
    this.behaviour = requireNonNull(behaviour, "behaviour is null");
    this.stop = requireNonNull(stop, "stop is null");
    this.recorder = requireNonNull(recorder, "recorder is null");
    this.config = requireNonNull(config, "config is null");
  }

  @Override
  public void run() {
    for (int n = 0; n < config.maxIterations() && stop.getCount() > 0; n++) {
      String status;
      try {
        status =
            switch (behaviour) {
              case SLOW_READER -> slowReader();
              case HEAVY_QUERY -> drain(HEAVY[n % HEAVY.length], deadline(1));
              case JOB_SPAM -> submit(n);
              case OVERSIZED -> oversized(n);
              case MEMORY_HOG -> drain(MEMORY_HOG, deadline(3));
            };
      } catch (Exception e) {
        status = LoadRecorder.status(e);
      }
      recorder.greedy(behaviour, status);
    }
  }

  /** {@code x-lake-timeout-ms}: {@code times} the configured heavy-query deadline. */
  private CallOption deadline(int times) {
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert("x-lake-timeout-ms", String.valueOf(config.heavyDeadline().toMillis() * times));
    return new HeaderCallOption(headers);
  }

  /** Runs {@code sql} and reads its whole result; OK if it completes. */
  private String drain(String sql, CallOption deadline) throws Exception {
    Ticket ticket = client.execute(sql, auth, deadline).getEndpoints().get(0).getTicket();
    try (FlightStream stream = client.getStream(ticket, auth, deadline)) {
      while (stream.next()) {
        // read everything: the server decides when this ends
      }
    }
    return "OK";
  }

  /**
   * Reads one batch of a stream that would last for days, then stops reading for three idle
   * timeouts (this pause is the hostile behaviour, so it does not end early with the run) and reads
   * on for at most a second: if the server cut the stream, the batches it had sent are followed by
   * its error, which is recorded; otherwise the pause repeats (at most four times), after which the
   * stream is cancelled and recorded as {@code STILL_OPEN}.
   */
  private String slowReader() throws Exception {
    Ticket ticket = client.execute(HUGE, auth).getEndpoints().get(0).getTicket();
    try (FlightStream stream = client.getStream(ticket, auth)) {
      stream.next();
      for (int round = 0; round < 4; round++) {
        Thread.sleep(config.idleStreamTimeout().toMillis() * 3);
        long burstEnd = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < burstEnd) {
          if (!stream.next()) {
            return "OK";
          }
        }
      }
      stream.cancel("still open", null);
      return "STILL_OPEN";
    }
  }

  /** Submits a new durable job (a fresh submission id and text each time); never collects it. */
  private String submit(int n) {
    String sql = "SELECT count(*) + " + n + " AS spam FROM lake.tpch.lineitem";
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert(SubmissionIds.HEADER, "spam-" + UUID.randomUUID());
    byte[] command =
        Any.pack(CommandStatementQuery.newBuilder().setQuery(sql).build()).toByteArray();
    flight.pollInfo(FlightDescriptor.command(command), auth, new HeaderCallOption(headers));
    return "OK";
  }

  /** Rotates: text over 256 KiB, a 40,000-item select list, a statement too large for a ticket. */
  private String oversized(int n) {
    String sql =
        switch (n % 3) {
          case 0 -> "SELECT 1 AS x --" + "x".repeat(300 * 1024);
          case 1 ->
              "SELECT "
                  + IntStream.range(0, 40_000).mapToObj(i -> "1").collect(Collectors.joining(","));
          default -> "SELECT 1 AS x WHERE '" + "y".repeat(100 * 1024) + "' <> ''";
        };
    client.execute(sql, auth);
    return "OK";
  }
}
