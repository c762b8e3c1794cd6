package dev.lake.app;

import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobState;
import dev.lake.core.local.FileJobStore;
import dev.lake.durable.DurableTierConfig;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import dev.lake.sandbox.SandboxedQueryEngine;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable tier's worker over engine processes (issue 23): a job whose statement breaches its
 * engine process's memory ceiling fails with the ceiling's message after exactly one attempt — a
 * ceiling is the statement's own doing, not a dependency failure, so it is never retried and never
 * crash-loops — and the worker's next job runs on the replacement process.
 */
class SandboxDurableCeilingTest {
  static final long CEILING = 512L << 20;
  static final String TOKEN = "dora-token";

  @TempDir Path dir;

  @Test
  void jobBreachingItsCeiling_failsOnceWithTheCeilingsMessage_andTheNextJobSucceeds()
      throws Exception {
    // GIVEN a local lake whose durable workers run statements in engine processes
    try (RootAllocator allocator = new RootAllocator()) {
      LakeRuntime runtime =
          SandboxFixture.start(
              dir, SandboxFixture.engine(dir, 1), SandboxFixture.processes(CEILING));
      // the components own the runtime's engine (and close it)
      try (Components components = Wiring.components(runtime);
          LocalDurableServer server =
              LocalDurableServer.start(
                  FrontDoorConfig.defaults().withListener("127.0.0.1", 0),
                  components,
                  new Principals(
                      List.of(
                          new PrincipalEntry(
                              Principals.sha256Hex(TOKEN), "acme", "dora", List.of("lake.tpch")))),
                  Clock.systemUTC(),
                  dir.resolve("durable"),
                  DurableTierConfig.defaults().withResultPrefix(""));
          FlightClient client =
              FlightClient.builder(
                      allocator, Location.forGrpcInsecure("127.0.0.1", server.server().port()))
                  .build()) {
        SandboxedQueryEngine processes = (SandboxedQueryEngine) runtime.engine();
        long kills = processes.figures().ceilingKills();

        // WHEN a job's statement builds a 2 GB string (lpad is admitted: the ceiling bounds it)
        PollInfo submitted =
            client.pollInfo(
                statement(
                    "SELECT length(lpad(n_name, 2000000000, n_comment)) FROM lake.tpch.nation"),
                bearer(TOKEN));
        FlightRuntimeException e = flightError(() -> pollToTheEnd(client, submitted));

        // THEN it fails with the ceiling's message, after one attempt, its process killed once
        assertThat(e.status().code()).isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
        assertThat(e.getMessage())
            .contains("went past its memory ceiling of 512 MiB")
            .contains("--engine-process-ceiling-mb");
        FileJobStore jobs = new FileJobStore(dir.resolve("durable").resolve("jobs"));
        assertThat(jobs.ids()).hasSize(1);
        Job job = jobs.find(jobs.ids().get(0)).orElseThrow();
        assertThat(job.state()).isEqualTo(JobState.FAILED);
        assertThat(job.attempt()).isEqualTo(1);
        assertThat(job.failure().orElseThrow().code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
        assertThat(processes.figures().ceilingKills()).isEqualTo(kills + 1);

        // AND the next job of the same tenant runs on the replacement process
        PollInfo next =
            client.pollInfo(statement("SELECT count(*) FROM lake.tpch.region"), bearer(TOKEN));
        assertThat(pollToTheEnd(client, next).getFlightDescriptor()).isEmpty();
        assertThat(new FileJobStore(dir.resolve("durable").resolve("jobs")).ids()).hasSize(2);
      }
    }
  }

  /** Polls until the job ends (a failure throws); the last answer. */
  private static PollInfo pollToTheEnd(FlightClient client, PollInfo info) {
    long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (info.getFlightDescriptor().isPresent()) {
      assertThat(System.nanoTime()).as("the job ended in time").isLessThan(end);
      info = client.pollInfo(info.getFlightDescriptor().get(), bearer(TOKEN));
    }
    return info;
  }
}
