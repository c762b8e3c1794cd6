package dev.lake.frontdoor;

import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The Flight calls the durable-tier end-to-end tests make: statements, headers, polling a job to
 * its end, reading every part, and catching the Flight status of a call that must fail.
 */
public final class DurableFlightCalls {
  private DurableFlightCalls() {}

  public static FlightDescriptor statement(String sql) {
    return FlightDescriptor.command(
        Any.pack(CommandStatementQuery.newBuilder().setQuery(sql).build()).toByteArray());
  }

  static CallOption header(String name, String value) {
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert(name, value);
    return new HeaderCallOption(headers);
  }

  /** Polls until the job is done; returns the final PollInfo. */
  public static PollInfo pollToEnd(FlightClient on, PollInfo first, String token) {
    PollInfo info = first;
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (info.getFlightDescriptor().isPresent()) {
      assertThat(System.nanoTime()).as("job finished in time").isLessThan(deadline);
      assertThat(info.getExpirationTime()).isPresent();
      info = on.pollInfo(info.getFlightDescriptor().get(), bearer(token));
    }
    assertThat(info.getProgress()).contains(1.0);
    return info;
  }

  /** Every row of every endpoint, in endpoint order, as text. */
  public static List<String> download(FlightClient on, FlightInfo info, String token)
      throws Exception {
    List<String> rows = new ArrayList<>();
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      assertThat(endpoint.getExpirationTime()).isPresent();
      rows.addAll(rows(on, endpoint.getTicket(), token));
    }
    return rows;
  }

  public static List<String> rows(FlightClient on, Ticket ticket, String token) throws Exception {
    List<String> rows = new ArrayList<>();
    try (FlightStream stream = on.getStream(ticket, bearer(token))) {
      while (stream.next()) {
        VectorSchemaRoot root = stream.getRoot();
        for (int r = 0; r < root.getRowCount(); r++) {
          StringBuilder row = new StringBuilder();
          for (var v : root.getFieldVectors()) {
            row.append(v.getObject(r)).append('|');
          }
          rows.add(row.toString());
        }
      }
    }
    return rows;
  }

  static FlightStatusCode failure(Supplier<?> call) {
    try {
      call.get();
    } catch (FlightRuntimeException e) {
      return e.status().code();
    }
    throw new AssertionError("call succeeded");
  }

  public static FlightRuntimeException flightError(ThrowingRunnable call) {
    try {
      call.run();
    } catch (FlightRuntimeException e) {
      return e;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("call succeeded");
  }

  public interface ThrowingRunnable {
    void run() throws Exception;
  }
}
