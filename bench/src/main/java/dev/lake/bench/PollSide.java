package dev.lake.bench;

import com.google.protobuf.Any;
import dev.lake.bench.ClientSpec.Side;
import dev.lake.durable.SubmissionIds;
import java.util.UUID;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;

/**
 * A durable query as a client sees it: PollFlightInfo(statement) and PollFlightInfo(descriptor)
 * until the job is done, then DoGet of every result part with {@code parallel} concurrent streams.
 * {@link ClientSides.Received#extra()} is the submit → done time in nanoseconds; the run's wall
 * time minus it is the download time.
 *
 * <p>Options: {@code parallel} (DoGets at once, default 1), {@code pollMillis} (client pause
 * between polls, default 5; each poll also waits server-side), {@code fresh} ({@code true}: send a
 * new {@code x-lake-submission-id} per run so every run is a new job that executes; otherwise the
 * derived id lands identical statements on the same finished job and only the download repeats).
 */
final class PollSide {
  private PollSide() {}

  static ClientSides.Received run(FlightClient client, Side side, CallOption auth)
      throws Exception {
    int parallel = Integer.parseInt(side.options().getOrDefault("parallel", "1"));
    long pollMillis = Long.parseLong(side.options().getOrDefault("pollMillis", "5"));
    boolean fresh = Boolean.parseBoolean(side.options().getOrDefault("fresh", "false"));
    byte[] command =
        Any.pack(CommandStatementQuery.newBuilder().setQuery(side.query()).build()).toByteArray();
    CallHeaders submission = new FlightCallHeaders();
    if (fresh) {
      submission.insert(SubmissionIds.HEADER, "bench-" + UUID.randomUUID());
    }
    long start = System.nanoTime();
    PollInfo poll =
        client.pollInfo(FlightDescriptor.command(command), auth, new HeaderCallOption(submission));
    while (poll.getFlightDescriptor().isPresent()) {
      Thread.sleep(pollMillis);
      poll = client.pollInfo(poll.getFlightDescriptor().get(), auth);
    }
    long done = System.nanoTime() - start;
    FlightInfo info = poll.getFlightInfo();
    long[] totals = ClientSides.fetchAll(client, info.getEndpoints(), parallel, auth);
    return new ClientSides.Received(totals[0], totals[1], done);
  }
}
