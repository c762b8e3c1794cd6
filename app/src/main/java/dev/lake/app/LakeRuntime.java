package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.aws.AwsClients;
import dev.lake.aws.AwsConfig;
import dev.lake.aws.DynamoDbJobStore;
import dev.lake.aws.DynamoDbRegistry;
import dev.lake.aws.KmsKeyConfig;
import dev.lake.aws.KmsKeyService;
import dev.lake.aws.S3ObjectStore;
import dev.lake.aws.SqsJobQueue;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.Catalogs;
import dev.lake.core.DataLocations;
import dev.lake.core.FormatContext;
import dev.lake.core.KeyService;
import dev.lake.core.ObjectStore;
import dev.lake.core.QueryEngine;
import dev.lake.core.Registry;
import dev.lake.core.TableFormats;
import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobStore;
import dev.lake.core.job.ResultLayout;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.durable.DurableTier;
import dev.lake.durable.JobProcessor;
import dev.lake.durable.WorkerConfig;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.EngineConfig;
import dev.lake.sandbox.SandboxConfig;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one composition root. From a validated {@link RuntimeConfig} it assembles, in one place, what
 * every lake process runs on: the SDK clients (AWS mode), the table registry (file or DynamoDB),
 * the key service (local ring or the KMS ring in the result bucket), the catalogs (every installed
 * {@link dev.lake.core.TableFormat} builds its own from one {@link FormatContext}: the registry,
 * the deployment's object-store access and the format settings; e.g. Lance always, Iceberg when a
 * REST catalog is configured), the DuckDB engine over their readers, and the AWS durable ports.
 * {@code bin/lake local}, {@code bin/lake serve}, {@code bin/lake worker}, the Lambda handler and
 * the end-to-end tests all build through here, so they cannot drift (registry freshness, engine
 * settings, key-ring location).
 *
 * <p>Closing releases, newest first, everything it built: engine, catalogs, keys, clients, and the
 * allocator.
 */
public final class LakeRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LakeRuntime.class);

  /** Default object-key prefix of the KMS-wrapped ticket keys in the result bucket. */
  public static final String KEY_RING_PREFIX = "ticket-keys";

  private final RuntimeConfig config;
  private final BufferAllocator allocator;
  private final Optional<AwsClients> clients;
  private final Registry registry;
  private final KeyService keys;
  private final Catalogs catalogs;
  private final List<TableReader> readers;
  private final QueryEngine engine;
  private final List<AutoCloseable> owned;

  private LakeRuntime(Parts p, QueryEngine engine, Catalogs catalogs, List<TableReader> readers) {
    this.config = p.config;
    this.allocator = p.allocator;
    this.clients = p.clients;
    this.registry = p.registry;
    this.keys = p.keys;
    this.owned = p.owned;
    this.engine = engine;
    this.catalogs = catalogs;
    this.readers = readers;
  }

  /** What is built before the engine; closed again if a later step fails. */
  private static final class Parts {
    RuntimeConfig config;
    BufferAllocator allocator;
    Optional<AwsClients> clients = Optional.empty();
    Registry registry;
    KeyService keys;
    final List<AutoCloseable> owned = new ArrayList<>();
  }

  /** Assembles a process from {@code config}. */
  public static LakeRuntime start(RuntimeConfig config) {
    requireNonNull(config, "config is null");
    Parts p = new Parts();
    p.config = config;
    p.allocator = new RootAllocator();
    p.owned.add(p.allocator);
    try {
      p.clients = config.aws().map(AwsClients::new);
      p.clients.ifPresent(p.owned::add);
      // registrations through this process obey its data locations (reads check them again)
      p.registry =
          config.formatSettings().stream()
              .filter(DataLocations.class::isInstance)
              .map(DataLocations.class::cast)
              .findFirst()
              .orElseThrow()
              .confine(registry(config.registry(), p.clients));
      p.keys = keys(config.keys(), p.clients, config.aws());
      if (p.keys instanceof AutoCloseable closeable
          && !(config.keys() instanceof KeySource.Given)) {
        p.owned.add(closeable);
      }
      FormatContext formats =
          new FormatContext(
              p.registry,
              config.registry().freshness(),
              p.allocator,
              ObjectStorage.access(config.aws()),
              config.formatSettings());
      List<CatalogPlugin> plugins = TableFormats.installed().open(formats);
      plugins.forEach(c -> c.owner().ifPresent(p.owned::add));
      List<TableResolver> resolvers = plugins.stream().map(CatalogPlugin::resolver).toList();
      List<TableReader> readers = plugins.stream().flatMap(c -> c.readers().stream()).toList();
      QueryEngine engine =
          config.sandbox().isolation() == SandboxConfig.Isolation.PROCESS
              ? EngineProcesses.engine(config)
              : engine(config.engine(), readers);
      return new LakeRuntime(p, engine, new Catalogs(resolvers), readers);
    } catch (RuntimeException e) {
      closeAll(p.owned, e);
      throw e;
    }
  }

  /** The DuckDB engine over {@code readers} (the one place it is built). */
  public static QueryEngine engine(EngineConfig config, List<TableReader> readers) {
    return new DuckDbQueryEngine(config, readers);
  }

  /** The registry named by {@code source}; a DynamoDB one needs {@code clients}. */
  public static Registry registry(RegistrySource source, Optional<AwsClients> clients) {
    if (source.file().isPresent()) {
      return new FileRegistry(source.file().get());
    }
    AwsClients aws =
        clients.orElseThrow(
            () -> new IllegalArgumentException("a DynamoDB registry needs the AWS settings"));
    return new DynamoDbRegistry(aws.dynamo(), source.table().orElseThrow());
  }

  private static KeyService keys(
      KeySource source, Optional<AwsClients> clients, Optional<AwsConfig> aws) {
    if (source instanceof KeySource.File f) {
      return LocalKeyRing.load(f.path());
    }
    if (source instanceof KeySource.CreatedFile f) {
      return LocalKeyRing.loadOrCreate(f.path());
    }
    if (source instanceof KeySource.Given g) {
      return g.keys();
    }
    String ringPrefix = ((KeySource.Kms) source).ringPrefix();
    AwsClients c = clients.orElseThrow();
    AwsConfig a = aws.orElseThrow();
    return new KmsKeyService(
        c.kms(),
        a.kmsKeyId(),
        new S3ObjectStore(c.s3(), a.bucket(), ringPrefix),
        KmsKeyConfig.defaults(),
        Clock.systemUTC(),
        true);
  }

  /** The AWS durable ports: DynamoDB jobs, SQS queue, S3 results at the bucket root. */
  public record AwsDurablePorts(JobStore jobs, JobQueue queue, ObjectStore results) {
    public AwsDurablePorts {
      requireNonNull(jobs, "jobs is null");
      requireNonNull(queue, "queue is null");
      requireNonNull(results, "results is null");
    }
  }

  /** The durable ports of the AWS deployment; empty without AWS settings. */
  public Optional<AwsDurablePorts> awsDurablePorts() {
    return clients.map(
        c -> {
          AwsConfig aws = config.aws().orElseThrow();
          return new AwsDurablePorts(
              new DynamoDbJobStore(c.dynamo(), aws.jobTable()),
              new SqsJobQueue(c.sqs(), aws.queueUrl()),
              new S3ObjectStore(c.s3(), aws.bucket(), ""));
        });
  }

  /**
   * A job processor over this runtime's catalogs and engine and the given durable ports, writing
   * results where {@code layout} says (the front door reads them with the same layout) and sending
   * the child jobs of a fan-out to {@code queue}.
   */
  public JobProcessor processor(
      JobStore jobs,
      JobQueue queue,
      ObjectStore results,
      WorkerConfig worker,
      ResultLayout layout,
      Clock clock,
      String workerId) {
    return DurableTier.processor(
        jobs,
        results,
        new DurableTier.Inputs(keys, catalogs, engine, allocator),
        worker,
        layout,
        clock,
        workerId,
        queue);
  }

  public RuntimeConfig config() {
    return config;
  }

  public BufferAllocator allocator() {
    return allocator;
  }

  public Optional<AwsClients> clients() {
    return clients;
  }

  public Registry registry() {
    return registry;
  }

  public KeyService keys() {
    return keys;
  }

  public Catalogs catalogs() {
    return catalogs;
  }

  public List<TableReader> readers() {
    return readers;
  }

  public QueryEngine engine() {
    return engine;
  }

  /** Everything but the engine, for holders that close the engine themselves. */
  public AutoCloseable resources() {
    return () -> closeAll(owned, null);
  }

  @Override
  public void close() {
    try {
      engine.close();
    } catch (Exception e) {
      LOG.warn("error while closing the engine", e);
    }
    closeAll(owned, null);
  }

  private static void closeAll(List<AutoCloseable> owned, RuntimeException failure) {
    for (int i = owned.size() - 1; i >= 0; i--) {
      try {
        owned.get(i).close();
      } catch (Exception e) {
        if (failure != null) {
          failure.addSuppressed(e);
        } else {
          LOG.warn("error while closing {}", owned.get(i), e);
        }
      }
    }
    owned.clear();
  }
}
