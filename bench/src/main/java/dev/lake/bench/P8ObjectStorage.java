package dev.lake.bench;

import dev.lake.aws.AwsEmulator;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.Principal;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.StorageAccess;
import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.EngineConfigBuilder;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.LanceStorage;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * P8: bytes read from object storage. The bench's Lance tables are copied into S3 on the emulator
 * (moto), and lake's engine (snapshot cache off, so every run reads the store) runs TPC-H queries
 * over them through a counting relay in front of the endpoint ({@link CountingProxy}: every byte
 * the store sends back, headers included). Each figure is the bytes read by one run against the
 * bytes the query needs: the compressed column chunks of the columns it references in the same
 * tables as Parquet (the baseline files; all row groups, so a filter's pruning shows as a ratio
 * below 1). The Lance tables' full size is in the note. Not timed: moto's throughput is not S3's.
 */
final class P8ObjectStorage implements Metric {
  private static final String BUCKET = "lake-bench";
  private static final String LABEL =
      "the referenced columns' compressed chunks in the same tables as Parquet";
  private static final List<String> TABLES =
      List.of("lineitem", "orders", "customer", "part", "supplier", "nation", "region");

  @Override
  public String id() {
    return "P8";
  }

  @Override
  public String title() {
    return "bytes read from S3 (moto) by lake over Lance per TPC-H query vs the referenced"
        + " columns' Parquet chunks";
  }

  @Override
  public List<Result> run(BenchContext context) throws Exception {
    BenchConfig config = context.config();
    Path parquet = context.parquet();
    Path lance = config.dataDir().resolve("lance");
    Path work = config.out().resolve("work").resolve("p8");
    Files.createDirectories(work);
    List<Result> out = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
        AwsEmulator moto = AwsEmulator.startMoto(work.resolve("moto.log"));
        CountingProxy proxy = new CountingProxy(moto.endpoint());
        S3Client s3 = s3(moto.endpoint())) {
      dev.lake.lance.demo.TpchDemo.generate(
          lance, config.scaleFactor(), new FileRegistry(lance.resolve("registry.json")), allocator);
      s3.createBucket(b -> b.bucket(BUCKET));
      Map<String, Long> lanceBytes = new LinkedHashMap<>();
      FileRegistry registry = new FileRegistry(work.resolve("registry.json"));
      for (String table : TABLES) {
        Path dataset = lance.resolve("tpch").resolve(table + ".lance");
        lanceBytes.put(table, upload(s3, dataset, "tpch/" + table + ".lance"));
        TableRef ref = new TableRef("lake", "tpch", table);
        registry.unregister(ref);
        LanceFormat.register(registry, ref, "s3://" + BUCKET + "/tpch/" + table + ".lance");
      }
      context.note("P8 Lance tables copied into moto: %s bytes", lanceBytes);
      StorageAccess access =
          new StorageAccess(
              Optional.of("us-east-1"),
              Optional.of(proxy.endpoint()),
              Optional.of(new StorageAccess.StaticKey("bench", "bench")));
      Map<String, String> options = LanceStorage.options(access);
      EngineConfig engineConfig =
          EngineConfigBuilder.builder(EngineConfig.defaults(work.resolve("spill")))
              .snapshotCacheBytes(0)
              .build();
      Principal principal = Principal.of("bench", "bench", Set.of("lake.tpch"));
      try (DuckDbQueryEngine engine =
              new DuckDbQueryEngine(
                  engineConfig,
                  List.of(new LanceTableReader(allocator, options, Optional.empty())));
          DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
          Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
        Catalogs catalogs =
            new Catalogs(
                List.of(new LanceTableResolver(registry, allocator, Duration.ZERO, options)));
        Map<String, String> queries = TpchQueries.forCatalog("lake");
        for (String q : TpchQueries.IDS) {
          String sql = queries.get(q);
          long needed = 0;
          long whole = 0;
          List<String> used = new ArrayList<>();
          for (String table : TABLES) {
            List<String> columns = referenced(duck, parquet.resolve(table + ".parquet"), sql);
            if (!columns.isEmpty()) {
              needed += chunkBytes(duck, parquet.resolve(table + ".parquet"), columns);
              whole += lanceBytes.get(table);
              used.add(table + " " + columns.size());
            }
          }
          AdmittedQuery admitted = admission.admit(sql);
          long[] read = new long[2];
          long[] requests = new long[2];
          for (int run = 0; run < 2; run++) {
            SnapshotSet snapshots = catalogs.resolveAll(principal, admitted);
            proxy.reset();
            try (QueryExecution exec = engine.execute(admitted, List.of(), snapshots, allocator)) {
              while (exec.reader().loadNextBatch()) {
                // drain
              }
            }
            read[run] = proxy.bytes();
            requests[run] = proxy.connections();
          }
          out.add(
              Result.measured(
                  id(),
                  q + "-lance-s3",
                  Stats.of(new double[] {read[1] / 1e6}),
                  Stats.of(new double[] {needed / 1e6}),
                  "MB",
                  LABEL,
                  false,
                  String.format(
                      java.util.Locale.ROOT,
                      "second run; the first (opening the datasets) read %.1f MB; %d new"
                          + " connections; columns referenced per table: %s; the Lance"
                          + " tables hold %.1f MB in all",
                      read[0] / 1e6,
                      requests[1],
                      used,
                      whole / 1e6)));
        }
      }
    }
    return out;
  }

  private static S3Client s3(URI endpoint) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
        .build();
  }

  /** Copies every file of {@code dataset} under {@code prefix}; returns the bytes copied. */
  private static long upload(S3Client s3, Path dataset, String prefix) throws Exception {
    long bytes = 0;
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dataset)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    for (Path f : files) {
      String key = prefix + "/" + dataset.relativize(f).toString().replace('\\', '/');
      s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromFile(f));
      bytes += Files.size(f);
    }
    return bytes;
  }

  /** The columns of {@code file} whose names appear in {@code sql} (TPC-H names are unique). */
  private static List<String> referenced(Connection duck, Path file, String sql) throws Exception {
    List<String> columns = new ArrayList<>();
    try (Statement s = duck.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT name FROM parquet_schema('" + file + "') WHERE num_children IS NULL")) {
      while (rs.next()) {
        String name = rs.getString(1);
        if (Pattern.compile("\\b" + Pattern.quote(name) + "\\b").matcher(sql).find()) {
          columns.add(name);
        }
      }
    }
    return columns;
  }

  private static long chunkBytes(Connection duck, Path file, List<String> columns)
      throws Exception {
    String in = String.join(", ", columns.stream().map(c -> "'" + c + "'").toList());
    try (Statement s = duck.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT sum(total_compressed_size) FROM parquet_metadata('"
                    + file
                    + "') WHERE path_in_schema IN ("
                    + in
                    + ")")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
