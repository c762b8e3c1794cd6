package dev.lake.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.ForwardingQueryEngine;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.job.DurableConfig;
import dev.lake.core.job.JobState;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultManifest;
import dev.lake.core.local.FileJobStore;
import dev.lake.core.local.InProcessJobQueue;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.local.LocalObjectStore;
import dev.lake.core.testing.Poll;
import dev.lake.core.testing.TestArrow;
import dev.lake.core.ticket.TicketConfig;
import dev.lake.core.ticket.TicketSealer;
import dev.lake.engine.DuckDbParquetCodec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet results on the embedded ports with the real DuckDB codec: parts, manifest, identity, and
 * hostile parts. The engine producing rows is the fake of our own port ({@link FakeEngine}).
 */
class ParquetResultsTest {
  @TempDir Path dir;

  private final Clock clock = Clock.systemUTC();
  private BufferAllocator allocator;
  private DuckDbParquetCodec codec;
  private LocalObjectStore objects;
  private FileJobStore jobs;
  private DurableQueries durable;
  private final List<JobProcessor> processors = new ArrayList<>();

  @BeforeEach
  void setUp() {
    allocator = new RootAllocator();
    codec = new DuckDbParquetCodec(dir.resolve("staging"));
    objects = new LocalObjectStore(dir.resolve("objects"));
    jobs = new FileJobStore(dir.resolve("jobs"));
    LocalKeyRing keys = LocalKeyRing.loadOrCreate(dir.resolve("keys.json"));
    durable =
        new DurableQueries(
            jobs,
            new InProcessJobQueue(Duration.ofSeconds(30), clock),
            objects,
            new TicketSealer(keys, TicketConfig.defaults(), clock),
            new EnvelopeSealer(keys),
            DurableConfig.defaults(),
            WorkerFixture.LAYOUT,
            clock,
            Optional.of(codec));
  }

  @AfterEach
  void tearDown() {
    processors.forEach(JobProcessor::close);
    codec.close();
    allocator.close();
  }

  private JobProcessor processor(FakeEngine rows) {
    LocalKeyRing keys = LocalKeyRing.loadOrCreate(dir.resolve("keys.json"));
    JobProcessor p =
        new JobProcessor(
            jobs,
            objects,
            new EnvelopeSealer(keys),
            new Catalogs(List.of(new Fakes.Resolver())),
            withParquet(rows, codec),
            allocator,
            WorkerFixture.config(1, Duration.ofSeconds(30)),
            WorkerFixture.LAYOUT,
            clock,
            "w1");
    processors.add(p);
    return p;
  }

  private JobStatus submit(ResultFormat format, Optional<String> submissionId) {
    return durable.submit(
        WorkerFixture.ALICE,
        WorkerFixture.QUERY,
        List.of(),
        WorkerFixture.SNAPSHOTS,
        TestArrow.SCHEMA,
        submissionId,
        format);
  }

  private JobStatus run(ResultFormat format, FakeEngine rows) {
    JobStatus submitted = submit(format, Optional.empty());
    assertThat(processor(rows).process(submitted.jobId(), later())).isEqualTo(Outcome.DONE);
    JobStatus done = durable.poll(WorkerFixture.ALICE, submitted.descriptor());
    assertThat(done.state()).as("%s", done.error()).isEqualTo(JobState.SUCCEEDED);
    return done;
  }

  private List<Long> download(JobStatus done) {
    List<Long> ids = new ArrayList<>();
    for (JobStatus.PartTicket p : done.parts()) {
      ids.addAll(TestArrow.ids(durable.openPart(WorkerFixture.ALICE, p.ticket(), allocator)));
    }
    return ids;
  }

  private ResultManifest manifest(JobStatus done) throws IOException {
    String key = jobs.find(done.jobId()).orElseThrow().manifestKey().orElseThrow();
    try (InputStream in = objects.find(key).orElseThrow()) {
      return ResultManifest.fromJson(in.readAllBytes());
    }
  }

  private Instant later() {
    return clock.instant().plusSeconds(60);
  }

  @Test
  void parquetJob_writesBoundedCompressedParts_andDownloadsExactlyTheIpcRows() throws Exception {
    // GIVEN the same 3,500-row statement submitted for Arrow IPC and for Parquet (parts <= 1,000)
    // WHEN a worker runs both
    JobStatus ipc = run(ResultFormat.ARROW, new FakeEngine(7, 500, Duration.ZERO));
    JobStatus parquet = run(ResultFormat.PARQUET, new FakeEngine(7, 500, Duration.ZERO));
    // THEN they are two jobs, cut into the same parts
    assertThat(parquet.jobId()).isNotEqualTo(ipc.jobId());
    assertThat(parquet.parts())
        .extracting(JobStatus.PartTicket::rows)
        .containsExactly(1000L, 1000L, 1000L, 500L);
    // AND the manifest records the format, written after Parquet parts that are smaller at rest
    ResultManifest m = manifest(parquet);
    assertThat(m.format()).isEqualTo(ResultManifest.FORMAT_PARQUET);
    assertThat(m.schema()).isEqualTo(TestArrow.SCHEMA);
    assertThat(m.parts()).allSatisfy(p -> assertThat(p.key()).endsWith(".parquet"));
    for (int i = 0; i < m.parts().size(); i++) {
      assertThat(m.parts().get(i).bytes()).isLessThan(ipc.parts().get(i).bytes());
      try (InputStream in = objects.find(m.parts().get(i).key()).orElseThrow()) {
        assertThat(new String(in.readNBytes(4), java.nio.charset.StandardCharsets.US_ASCII))
            .isEqualTo("PAR1");
      }
    }
    assertThat(manifest(ipc).format()).isEqualTo(ResultManifest.FORMAT_ARROW_STREAM);
    // AND every part downloads as Arrow, exactly the IPC result's rows in order
    assertThat(download(parquet)).isEqualTo(download(ipc)).isEqualTo(TestArrow.range(3_500));
    // AND nothing stays staged
    assertThat(Files.list(dir.resolve("staging"))).isEmpty();
  }

  @Test
  void submissionIdReusedWithAnotherFormat_isRejected() {
    // GIVEN a client-chosen submission id used for an Arrow result
    submit(ResultFormat.ARROW, Optional.of("nightly-1"));
    // WHEN it is reused for Parquet THEN it is another statement
    assertThatThrownBy(() -> submit(ResultFormat.PARQUET, Optional.of("nightly-1")))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    // AND the same id with the same format lands on the same job
    assertThat(submit(ResultFormat.ARROW, Optional.of("nightly-1")).jobId())
        .isEqualTo(submit(ResultFormat.ARROW, Optional.of("nightly-1")).jobId());
  }

  @Test
  void tamperedOrTruncatedParquetPart_failsClosed_andTheOtherPartsStillDownload() throws Exception {
    // GIVEN a finished Parquet result
    JobStatus done = run(ResultFormat.PARQUET, new FakeEngine(7, 500, Duration.ZERO));
    ResultManifest m = manifest(done);
    Path objectsDir = dir.resolve("objects");
    // WHEN part 0 is overwritten with garbage of exactly its size
    Files.write(
        objectsDir.resolve(m.parts().get(0).key()), new byte[(int) m.parts().get(0).bytes()]);
    // THEN its download is rejected before any row is served
    assertThatThrownBy(
            () ->
                TestArrow.ids(
                    durable.openPart(WorkerFixture.ALICE, done.parts().get(0).ticket(), allocator)))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INTERNAL))
        .hasMessageContaining("Result part rejected");
    // WHEN part 1 is swapped for part 3 (a valid Parquet file of other rows, sizes differ)
    Files.copy(
        objectsDir.resolve(m.parts().get(3).key()),
        objectsDir.resolve(m.parts().get(1).key()),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    // THEN it no longer matches its sealed size: gone
    assertThatThrownBy(
            () -> durable.openPart(WorkerFixture.ALICE, done.parts().get(1).ticket(), allocator))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    // AND the untouched part still downloads, and nothing stays staged or allocated
    assertThat(
            TestArrow.ids(
                durable.openPart(WorkerFixture.ALICE, done.parts().get(2).ticket(), allocator)))
        .isEqualTo(TestArrow.range(3_500).subList(2_000, 3_000));
    assertThat(Files.list(dir.resolve("staging"))).isEmpty();
    assertThat(allocator.getAllocatedMemory()).isZero();
  }

  @Test
  void cancelDuringAParquetWrite_stopsTheWorker_andLeavesNoPartsOrStagedFiles() throws Exception {
    // GIVEN a slow Parquet job whose rows are being written
    JobStatus submitted = submit(ResultFormat.PARQUET, Optional.empty());
    JobProcessor p = processor(new FakeEngine(100, 1_000, Duration.ofMillis(50)));
    CompletableFuture<Outcome> run =
        CompletableFuture.supplyAsync(() -> p.process(submitted.jobId(), later()));
    Poll.until(
        Duration.ofSeconds(10),
        () -> jobs.find(submitted.jobId()).orElseThrow().rowsWritten() > 0 || run.isDone(),
        "the job started writing rows");
    assertThat(run).isNotDone();
    // WHEN the client cancels
    assertThat(durable.cancel(WorkerFixture.ALICE, submitted.descriptor()))
        .isEqualTo(JobStatus.CancelOutcome.CANCELLING);
    // THEN the worker stops; no part, manifest or staged file remains
    assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.DONE);
    assertThat(jobs.find(submitted.jobId()).orElseThrow().state()).isEqualTo(JobState.CANCELLED);
    assertThat(objects.list("results/")).isEmpty();
    assertThat(Files.list(dir.resolve("staging"))).isEmpty();
  }

  @Test
  void parquetJob_onAnEngineWithoutACodec_failsUnsupported() {
    // GIVEN a worker whose engine offers no Parquet codec
    JobStatus submitted = submit(ResultFormat.PARQUET, Optional.empty());
    JobProcessor p =
        new JobProcessor(
            jobs,
            objects,
            new EnvelopeSealer(LocalKeyRing.loadOrCreate(dir.resolve("keys.json"))),
            new Catalogs(List.of(new Fakes.Resolver())),
            new FakeEngine(1, 10, Duration.ZERO),
            allocator,
            WorkerFixture.config(1, Duration.ofSeconds(30)),
            WorkerFixture.LAYOUT,
            clock,
            "w2");
    processors.add(p);
    // WHEN it runs the job THEN the job fails UNSUPPORTED, leaving nothing behind
    assertThat(p.process(submitted.jobId(), later())).isEqualTo(Outcome.DONE);
    assertThat(jobs.find(submitted.jobId()).orElseThrow().failure().orElseThrow().code())
        .isEqualTo(ErrorCode.UNSUPPORTED);
    assertThat(objects.list("results/")).isEmpty();
  }

  /** The fake engine, offering the real codec as the DuckDB engine does. */
  private static QueryEngine withParquet(FakeEngine rows, ParquetCodec codec) {
    return new ForwardingQueryEngine() {
      @Override
      protected QueryEngine delegate() {
        return rows;
      }

      @Override
      public Optional<ParquetCodec> parquet() {
        return Optional.of(codec);
      }
    };
  }
}
