package dev.lake.frontdoor;

import static dev.lake.frontdoor.DurableEndToEndTest.SLOW;
import static dev.lake.frontdoor.DurableFlightCalls.flightError;
import static dev.lake.frontdoor.DurableFlightCalls.header;
import static dev.lake.frontdoor.DurableFlightCalls.rows;
import static dev.lake.frontdoor.DurableFlightCalls.statement;
import static dev.lake.frontdoor.TestLake.ALICE;
import static dev.lake.frontdoor.TestLake.ALICE_REVOKED;
import static dev.lake.frontdoor.TestLake.CAROL;
import static dev.lake.frontdoor.TestLake.bearer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.job.ResultConfig;
import dev.lake.core.testing.Poll;
import dev.lake.durable.DurableTierConfig;
import dev.lake.durable.DurableTierConfigBuilder;
import dev.lake.durable.WorkerConfigBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile use of the durable tier against a running server (real Flight, engine and in-process
 * workers): job spam beyond the tenant's queued bound, and a grant revoked while a job is polled.
 * Each ends with a fresh, never-seen query that must still succeed.
 */
class DurableHostileTest {
  static final int QUEUED_BOUND = 3;

  @TempDir static Path dir;
  static TestLake lake;
  static FlightClient client;

  @BeforeAll
  static void start() {
    // two workers, at most one running job per tenant: a greedy tenant never holds both
    DurableTierConfig config =
        DurableTierConfigBuilder.builder()
            .pollWait(Duration.ofMillis(500))
            .workers(2)
            .worker(
                WorkerConfigBuilder.builder()
                    .lease(Duration.ofSeconds(4))
                    .renewEvery(Duration.ofMillis(300))
                    .maxExecution(Duration.ofMinutes(2))
                    .lambdaMargin(Duration.ofSeconds(1))
                    .retryDelay(Duration.ofMillis(200))
                    .maxRunningPerTenant(1)
                    .build())
            .build()
            .withResultPrefix("")
            .withResults(ResultConfig.defaults().withMaxPartRows(10_000))
            .withMaxQueuedPerTenant(QUEUED_BOUND);
    lake = TestLake.startDurable(dir, config);
    client =
        FlightClient.builder(lake.allocator, Location.forGrpcInsecure("127.0.0.1", lake.port()))
            .build();
  }

  @AfterAll
  static void stop() throws Exception {
    client.close();
    lake.close();
  }

  private static PollInfo submit(String sql, String token, String submissionId) {
    return client.pollInfo(
        statement(sql), bearer(token), header("x-lake-submission-id", submissionId));
  }

  /** Polls until the job is done or {@code max} passed; returns the last answer. */
  private static PollInfo pollUntilDone(PollInfo first, String token, Duration max) {
    PollInfo[] last = {first};
    Poll.until(
        max,
        () -> {
          if (last[0].getFlightDescriptor().isPresent()) {
            last[0] = client.pollInfo(last[0].getFlightDescriptor().get(), bearer(token));
          }
          return last[0].getFlightDescriptor().isEmpty();
        },
        "the job finished");
    return last[0];
  }

  private static void freshQuerySucceeds() throws Exception {
    String sql = "SELECT count(*) + 0 * " + UUID.randomUUID().hashCode() + " FROM lake.tpch.region";
    FlightInfo info = client.getInfo(statement(sql), bearer(ALICE));
    assertThat(rows(client, info.getEndpoints().get(0).getTicket(), ALICE)).containsExactly("5|");
  }

  @Test
  void jobSpam_beyondTheQueuedBound_isResourceExhausted_andAnotherTenantStillFinishesPromptly()
      throws Exception {
    // GIVEN alice's tenant filled its queued bound with slow jobs (one runs, the rest wait)
    List<PollInfo> greedy = new ArrayList<>();
    for (int i = 0; i < QUEUED_BOUND; i++) {
      greedy.add(submit(SLOW, ALICE, "spam-" + i));
    }
    // WHEN it keeps submitting, far beyond the bound
    List<FlightRuntimeException> refused = new ArrayList<>();
    for (int i = QUEUED_BOUND; i < 40; i++) {
      int n = i;
      refused.add(flightError(() -> submit(SLOW, ALICE, "spam-" + n)));
    }
    // THEN every extra submission is RESOURCE_EXHAUSTED with the code, count, bound and flag
    assertThat(refused)
        .allSatisfy(
            e -> {
              assertThat(e.status().code()).isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
              assertThat(e.status().metadata().get("x-lake-error-code"))
                  .isEqualTo("RESOURCE_EXHAUSTED");
              assertThat(e.getMessage())
                  .contains("Tenant acme already has 3 durable queries queued or running")
                  .contains("--durable-max-queued-per-tenant");
            });
    // AND another tenant's job is picked by the worker the greedy tenant may not hold, at once
    long started = System.nanoTime();
    PollInfo polite =
        pollUntilDone(
            submit("SELECT count(*) FROM lake.tpch.nation", CAROL, "polite"),
            CAROL,
            Duration.ofSeconds(60));
    long politeMillis = (System.nanoTime() - started) / 1_000_000;
    assertThat(polite.getProgress()).contains(1.0);
    System.out.println("durable hostile: polite job done in " + politeMillis + " ms");
    // AND cancelling the greedy jobs frees their places: the tenant may submit again
    for (PollInfo g : greedy) {
      client.cancelFlightInfo(new CancelFlightInfoRequest(g.getFlightInfo()), bearer(ALICE));
    }
    PollInfo again = submit("SELECT count(*) FROM lake.tpch.nation", ALICE, "after-spam");
    assertThat(pollUntilDone(again, ALICE, Duration.ofSeconds(60)).getProgress()).contains(1.0);
    // AND a fresh, never-seen query still succeeds
    freshQuerySucceeds();
  }

  @Test
  void grantRevokedAfterSubmission_refusesPollAndPartDownload_asPermissionDenied()
      throws Exception {
    // GIVEN alice's submitted job
    PollInfo submitted = submit("SELECT * FROM lake.tpch.nation", ALICE, "revoke-me");
    // WHEN her grant on lake.tpch is revoked while she polls
    FlightRuntimeException pending =
        flightError(
            () -> client.pollInfo(submitted.getFlightDescriptor().get(), bearer(ALICE_REVOKED)));
    // THEN the poll is PERMISSION_DENIED (Flight UNAUTHORIZED; the code in the metadata)
    assertThat(pending.status().code()).isEqualTo(FlightStatusCode.UNAUTHORIZED);
    assertThat(pending.status().metadata().get("x-lake-error-code")).isEqualTo("PERMISSION_DENIED");
    // AND once the job finished, downloading its part with the revoked grant is refused too
    PollInfo done = pollUntilDone(submitted, ALICE, Duration.ofSeconds(60));
    FlightInfo info = done.getFlightInfo();
    assertThat(info.getEndpoints()).isNotEmpty();
    FlightRuntimeException download =
        flightError(() -> rows(client, info.getEndpoints().get(0).getTicket(), ALICE_REVOKED));
    assertThat(download.status().metadata().get("x-lake-error-code"))
        .isEqualTo("PERMISSION_DENIED");
    assertThat(download.getMessage()).contains("grants no longer cover");
    // AND the principal who still holds the grant downloads it, and a fresh query succeeds
    assertThat(rows(client, info.getEndpoints().get(0).getTicket(), ALICE)).hasSize(25);
    freshQuerySucceeds();
  }
}
