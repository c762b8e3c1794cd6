package dev.lake.core.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobLimits;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileJobStoreLedgerTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  @TempDir Path dir;

  private static Job job(String id, Instant expiresAt) {
    return Job.pending(id, "acme", "alice", "fp", new byte[] {1}, T0, expiresAt);
  }

  @Test
  void sweepingExpiredRecords_releasesTheirPlaces() {
    // GIVEN a tenant at its bound of two, one of whose jobs expires early
    FileJobStore store = new FileJobStore(dir);
    store.createIfAbsent(job("j-short", T0.plusSeconds(60)), JobLimits.active(2));
    store.createIfAbsent(job("j-long", T0.plusSeconds(3600)), JobLimits.active(2));
    // WHEN the expired record is swept
    assertThat(store.sweepExpired(T0.plusSeconds(61))).isEqualTo(1);
    // THEN its place is free
    assertThat(store.usage("acme").active()).isEqualTo(1);
    assertThat(store.createIfAbsent(job("j-new", T0.plusSeconds(3600)), JobLimits.active(2)))
        .isInstanceOf(JobStore.CreateResult.Created.class);
  }

  @Test
  void aRefusedWrite_endsAnExpiredUnfinishedJob_releasingItsPlace_andThenFits() {
    // GIVEN a tenant at its bound of two: one job expired unfinished (nothing will run it any
    // more), one still live, seen by a store whose clock is past the first one's expiry
    new FileJobStore(dir).createIfAbsent(job("j-stuck", T0.plusSeconds(60)), JobLimits.active(2));
    new FileJobStore(dir).createIfAbsent(job("j-live", T0.plusSeconds(3600)), JobLimits.active(2));
    FileJobStore store = new FileJobStore(dir, Clock.fixed(T0.plusSeconds(61), ZoneOffset.UTC));
    // WHEN the tenant submits again, long before any sweep
    JobStore.CreateResult result =
        store.createIfAbsent(job("j-new", T0.plusSeconds(3600)), JobLimits.active(2));
    // THEN the expired job was ended (not merely dropped from the count) and the new one fits
    assertThat(result).isInstanceOf(JobStore.CreateResult.Created.class);
    Job ended = store.find("j-stuck").orElseThrow();
    assertThat(ended.state()).isEqualTo(JobState.FAILED);
    assertThat(ended.failure().orElseThrow())
        .isEqualTo(
            new Job.Failure(ErrorCode.DEADLINE_EXCEEDED, "The job expired before it could run"));
    assertThat(store.find("j-live").orElseThrow().state()).isEqualTo(JobState.PENDING);
    // AND the live job still counts: a third submission is refused
    assertThat(store.createIfAbsent(job("j-more", T0.plusSeconds(3600)), JobLimits.active(2)))
        .isInstanceOf(JobStore.CreateResult.Refused.class);
    assertThat(store.usage("acme").active()).isEqualTo(2);
  }

  @Test
  void reopening_rebuildsTheLedgerFromTheRecords() throws Exception {
    // GIVEN a ledger that lost track (a process killed between the record and the ledger write)
    FileJobStore store = new FileJobStore(dir);
    store.createIfAbsent(job("j-1", T0.plusSeconds(3600)));
    Files.writeString(dir.resolve(".ledger.json"), "{}");
    assertThat(store.usage("acme").active()).isZero();
    // WHEN the store is opened again THEN the ledger counts the record again
    assertThat(new FileJobStore(dir).usage("acme").active()).isEqualTo(1);
  }

  @Test
  void aFileThatCannotBeRead_isADependencyFailure_notAnInternalError() throws Exception {
    // GIVEN a store whose ledger file became unreadable (here: a directory in its place)
    FileJobStore store = new FileJobStore(dir);
    store.createIfAbsent(job("j-1", T0.plusSeconds(3600)));
    Files.delete(dir.resolve(".ledger.json"));
    Files.createDirectory(dir.resolve(".ledger.json"));
    // WHEN a job is written THEN the port answers EXTERNAL_UNAVAILABLE, as every port does
    assertThatThrownBy(() -> store.createIfAbsent(job("j-2", T0.plusSeconds(3600))))
        .isInstanceOfSatisfying(
            LakeException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE))
        .hasMessage("The local job store is unavailable; retry later");
    // AND once the file is back the store works again
    Files.delete(dir.resolve(".ledger.json"));
    assertThat(store.createIfAbsent(job("j-3", T0.plusSeconds(3600))))
        .isInstanceOf(JobStore.CreateResult.Created.class);
  }
}
