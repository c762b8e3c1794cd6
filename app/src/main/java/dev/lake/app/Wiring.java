package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.core.CatalogPlugin;
import dev.lake.core.Catalogs;
import dev.lake.core.KeyService;
import dev.lake.core.QueryEngine;
import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;
import dev.lake.durable.DurableTier;
import dev.lake.durable.DurableTierConfig;
import dev.lake.engine.AdmissionConfig;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.engine.ReusingQueryEngine;
import dev.lake.frontdoor.Components;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The front door's view of the composition root: {@link Components} (ports plus SQL admission) from
 * a {@link LakeRuntime}, which {@code bin/lake local}, {@code serve} and the end-to-end tests
 * build. For tests and embedders that bring their own registry or keys, {@link #components(
 * BufferAllocator, EngineConfig, KeyService, List)} builds the same engine over catalog plugins.
 */
public final class Wiring {
  /** How long the request path may serve a cached registry resolution. */
  public static final Duration DEFAULT_FRESHNESS = RegistrySource.DEFAULT_FRESHNESS;

  private Wiring() {}

  /**
   * The runtime's ports plus DuckDB admission, with exact result reuse (at its defaults) in front
   * of the engine; closing the components closes the runtime.
   */
  public static Components components(LakeRuntime runtime) {
    return components(runtime, ResultReuseConfig.defaults());
  }

  /** As {@link #components(LakeRuntime)} with the given result reuse bounds. */
  public static Components components(LakeRuntime runtime, ResultReuseConfig reuse) {
    return components(runtime, reuse, AdmissionConfig.defaults());
  }

  /** As {@link #components(LakeRuntime)} with the given result reuse and SQL admission bounds. */
  public static Components components(
      LakeRuntime runtime, ResultReuseConfig reuse, AdmissionConfig admissionConfig) {
    requireNonNull(runtime, "runtime is null");
    DuckDbSqlAdmission admission = new DuckDbSqlAdmission(admissionConfig);
    return new Components(
        runtime.allocator(),
        admission,
        runtime.catalogs(),
        runtime.readers(),
        // deterministic statements at identical sealed snapshots and parameters are answered
        // from the stored result (bounded by bytes); closing it closes the runtime's engine
        new ReusingQueryEngine(runtime.engine(), runtime.readers(), reuse),
        runtime.keys(),
        List.of(runtime.resources(), admission));
  }

  /** DuckDB admission and engine over the given catalogs, with result reuse at its defaults. */
  public static Components components(
      BufferAllocator allocator,
      EngineConfig engineConfig,
      KeyService keys,
      List<CatalogPlugin> catalogs) {
    return components(allocator, engineConfig, ResultReuseConfig.defaults(), keys, catalogs);
  }

  /** DuckDB admission and engine over the given catalogs. */
  public static Components components(
      BufferAllocator allocator,
      EngineConfig engineConfig,
      ResultReuseConfig reuse,
      KeyService keys,
      List<CatalogPlugin> catalogs) {
    requireNonNull(catalogs, "catalogs is null");
    List<TableResolver> resolvers = catalogs.stream().map(CatalogPlugin::resolver).toList();
    List<TableReader> readers = catalogs.stream().flatMap(c -> c.readers().stream()).toList();
    List<AutoCloseable> owned = new ArrayList<>();
    catalogs.forEach(c -> c.owner().ifPresent(owned::add));
    DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
    owned.add(admission);
    try {
      // exact result reuse in front of the engine (see components(LakeRuntime))
      QueryEngine engine =
          new ReusingQueryEngine(LakeRuntime.engine(engineConfig, readers), readers, reuse);
      return new Components(
          allocator, admission, new Catalogs(resolvers), readers, engine, keys, owned);
    } catch (RuntimeException e) {
      admission.close();
      throw e;
    }
  }

  /**
   * The durable tier on the AWS adapters of the runtime: DynamoDB jobs, SQS queue, S3 results
   * (bucket root, under the result prefix) and its KMS key ring (which also seals statement
   * tickets, so replicas and Lambda workers share keys). Workers run in Lambda or {@code bin/lake
   * worker} unless {@link DurableTierConfig#workers()} asks for in-process ones.
   */
  public static DurableTier awsDurableTier(
      LakeRuntime runtime, Components components, DurableTierConfig config, Clock clock) {
    LakeRuntime.AwsDurablePorts aws =
        runtime
            .awsDurablePorts()
            .orElseThrow(() -> new IllegalArgumentException("--durable aws needs AWS settings"));
    DurableTier.Ports ports =
        new DurableTier.Ports(aws.jobs(), aws.queue(), aws.results(), components.keys(), List.of());
    return DurableTier.start(ports, components.durableInputs(), config, clock);
  }
}
