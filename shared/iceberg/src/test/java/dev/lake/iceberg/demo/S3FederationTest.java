package dev.lake.iceberg.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.QueryExecution;
import dev.lake.core.ScanRequest;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.iceberg.IcebergFilesConfig;
import dev.lake.iceberg.IcebergSnapshot;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;

/** Data files on S3 (moto), written with S3FileIO and read through lake's reader. */
@ExtendWith(MotoExtension.class)
class S3FederationTest {
  static final String BUCKET = "lake-iceberg-test";

  @TempDir static Path dir;
  static RestCatalogFixture fixture;
  static BufferAllocator allocator;

  @BeforeAll
  static void start() throws Exception {
    try (S3Client s3 = s3()) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
    fixture =
        RestCatalogFixture.start(
            dir, "s3://" + BUCKET + "/warehouse", s3Properties(), 0, Optional.empty());
    DemoTables.create(fixture.backend());
    allocator = new RootAllocator();
  }

  @AfterAll
  static void stop() throws Exception {
    if (allocator != null) {
      allocator.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void scan_readsDataFilesFromS3_equalToIcebergGenerics() {
    // GIVEN demo.nation written to S3 through S3FileIO
    Table nation = fixture.backend().loadTable(TableIdentifier.of("demo", "nation"));
    try (S3Client s3 = s3()) {
      assertThat(s3.listObjectsV2(ListObjectsV2Request.builder().bucket(BUCKET).build()).contents())
          .anyMatch(o -> o.key().endsWith(".parquet"));
    }

    // WHEN lake resolves and reads it with S3 properties passed through its config
    IcebergConfig config =
        IcebergConfig.fromFlags(fixture.uri().toString(), null, "demo")
            .withProperties(s3Properties());
    try (IcebergFederation iceberg = IcebergFederation.connect(config, allocator)) {
      TableRef ref = TableRef.parse("iceberg.demo.nation");
      IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
      List<List<Object>> rows =
          Rows.scan(
              iceberg.reader(), ref, s, new ScanRequest(List.of(), List.of(), 7, 2), allocator);

      // THEN the rows equal Iceberg's generic reader, and the S3 secret is not in the config text
      assertThat(rows).hasSize(25).isEqualTo(Rows.generics(nation, s.snapshotId()));
      assertThat(config.toString()).doesNotContain("moto-secret");
    }
  }

  @Test
  void directRead_fetchesTheExactFilesIntoTheLocalCache_equalsIcebergGenerics_thenACopyServes()
      throws Exception {
    // GIVEN demo.nation on S3 and the engine (snapshot cache on, as shipped) over a federation
    // with direct reads
    Table nation = fixture.backend().loadTable(TableIdentifier.of("demo", "nation"));
    IcebergConfig config =
        IcebergConfig.fromFlags(fixture.uri().toString(), null, "demo")
            .withProperties(s3Properties());
    Path cache = dir.resolve("files");
    try (IcebergFederation iceberg =
            IcebergFederation.connect(
                config, new IcebergFilesConfig(true, Optional.of(cache), 64L << 20), allocator);
        DuckDbQueryEngine engine =
            new DuckDbQueryEngine(
                EngineConfig.defaults(dir.resolve("spill")), List.of(iceberg.reader()));
        DuckDbSqlAdmission admission = new DuckDbSqlAdmission()) {
      TableRef ref = TableRef.parse("iceberg.demo.nation");
      IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
      AdmittedQuery q = admission.admit("SELECT * FROM iceberg.demo.nation");
      SnapshotSet set = new SnapshotSet(Map.of(ref, s));

      // WHEN read twice through the engine (the second read queues a background copy)
      List<List<Object>> first = read(engine, q, set);
      List<List<Object>> second = read(engine, q, set);

      // THEN DuckDB read local copies of the S3 files, with exactly Iceberg's rows
      assertThat(first).hasSize(25).isEqualTo(Rows.generics(nation, s.snapshotId()));
      assertThat(second).isEqualTo(first);
      try (var files = java.nio.file.Files.list(cache)) {
        assertThat(files.filter(p -> p.toString().endsWith(".parquet")).count()).isPositive();
      }

      // AND WHEN the copy (made by DuckDB from the same local files) exists THEN it serves a
      // third read with the same rows, and no file was scanned for it
      long deadline = System.nanoTime() + java.time.Duration.ofSeconds(60).toNanos();
      while (engine.cacheStats().snapshotCopies() == 0) {
        assertThat(System.nanoTime()).as("a copy within 60 s").isLessThan(deadline);
        java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
      }
      long scans = iceberg.directScans(); // the two reads and the copy's own scan
      assertThat(scans).isEqualTo(3);
      assertThat(read(engine, q, set)).isEqualTo(first);
      assertThat(engine.cacheStats().snapshotHits()).isEqualTo(1);
      assertThat(iceberg.directScans()).isEqualTo(scans);
    }
  }

  @Test
  void read_refusesDataFilesInAnotherBucketOrPrefix_identicallyWhetherTheObjectExists()
      throws Exception {
    // GIVEN one of demo.nation's Parquet files copied into another bucket and outside the prefix
    Table nation = fixture.backend().loadTable(TableIdentifier.of("demo", "nation"));
    org.apache.iceberg.DataFile real =
        nation.currentSnapshot().addedDataFiles(nation.io()).iterator().next();
    String key = real.location().substring(("s3://" + BUCKET + "/").length());
    try (S3Client s3 = s3()) {
      s3.createBucket(b -> b.bucket("lake-other"));
      s3.copyObject(
          b ->
              b.sourceBucket(BUCKET)
                  .sourceKey(key)
                  .destinationBucket("lake-other")
                  .destinationKey("x.parquet"));
      s3.copyObject(
          b ->
              b.sourceBucket(BUCKET)
                  .sourceKey(key)
                  .destinationBucket(BUCKET)
                  .destinationKey("secret/x.parquet"));
    }
    List<String> outside =
        List.of(
            "s3://lake-other/x.parquet", // exists, another bucket
            "s3://lake-other/missing.parquet", // does not exist
            "s3://" + BUCKET + "/secret/x.parquet", // the same bucket, outside the prefix
            "s3://" + BUCKET + "/warehouse/../secret/x.parquet"); // `..`
    List<TableRef> refs = new java.util.ArrayList<>();
    for (int i = 0; i < outside.size(); i++) {
      Table t =
          fixture
              .backend()
              .createTable(TableIdentifier.of("demo", "foreign_" + i), DemoTables.NATION);
      t.newAppend()
          .appendFile(
              org.apache.iceberg.DataFiles.builder(org.apache.iceberg.PartitionSpec.unpartitioned())
                  .withPath(outside.get(i))
                  .withFileSizeInBytes(real.fileSizeInBytes())
                  .withRecordCount(real.recordCount())
                  .withFormat(org.apache.iceberg.FileFormat.PARQUET)
                  .build())
          .commit();
      refs.add(TableRef.parse("iceberg.demo.foreign_" + i));
    }
    IcebergConfig config =
        IcebergConfig.fromFlags(fixture.uri().toString(), null, "demo")
            .withProperties(s3Properties());
    Path cache = dir.resolve("confined-files");
    try (IcebergFederation iceberg =
        IcebergFederation.connect(
            config,
            new IcebergFilesConfig(true, Optional.of(cache), 64L << 20),
            Optional.of(dev.lake.core.DataLocations.parse("s3://" + BUCKET + "/warehouse/", false)),
            allocator)) {
      for (TableRef ref : refs) {
        // WHEN read THEN refused naming the table, one text whether the object exists
        IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
        assertThatThrownBy(
                () ->
                    Rows.scan(
                        iceberg.reader(),
                        ref,
                        s,
                        new ScanRequest(List.of(), List.of(), 7, 2),
                        allocator))
            .as(ref.toString())
            .hasMessage(dev.lake.core.DataLocations.outside(ref).getMessage());
      }
      // AND nothing was fetched into the cache, and a fresh read of the real table succeeds
      try (var files = java.nio.file.Files.list(cache)) {
        assertThat(files).isEmpty();
      }
      TableRef ref = TableRef.parse("iceberg.demo.nation");
      IcebergSnapshot s = (IcebergSnapshot) iceberg.resolver().resolve(ref);
      assertThat(
              Rows.scan(
                  iceberg.reader(), ref, s, new ScanRequest(List.of(), List.of(), 7, 2), allocator))
          .hasSize(25);
    }
  }

  private List<List<Object>> read(DuckDbQueryEngine engine, AdmittedQuery q, SnapshotSet set)
      throws java.io.IOException {
    try (QueryExecution e = engine.execute(q, List.of(), set, allocator)) {
      return Rows.read(e.reader());
    }
  }

  static Map<String, String> s3Properties() {
    Map<String, String> p = new HashMap<>();
    p.put("io-impl", "org.apache.iceberg.aws.s3.S3FileIO");
    p.put("s3.endpoint", MotoExtension.endpoint().toString());
    p.put("s3.path-style-access", "true");
    p.put("s3.access-key-id", "test");
    p.put("s3.secret-access-key", "moto-secret");
    p.put("client.region", "us-east-1");
    p.put("http-client.type", "urlconnection");
    return p;
  }

  static S3Client s3() {
    return S3Client.builder()
        .endpointOverride(MotoExtension.endpoint())
        .forcePathStyle(true)
        .region(Region.US_EAST_1)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "moto-secret")))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }
}
