package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Catalogs;
import dev.lake.core.KeyService;
import dev.lake.core.QueryEngine;
import dev.lake.core.Registry;
import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.engine.ReusingQueryEngine;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import dev.lake.lance.LanceTableReader;
import dev.lake.lance.LanceTableResolver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Builds the real components from catalog plugins. Local mode and {@code serve} differ only in
 * where the registry, key ring and principals live; both call {@link #components}. To serve one
 * more catalog, build its {@link CatalogPlugin} (resolver + reader) and add it to the list, e.g.
 *
 * <pre>{@code
 * Wiring.components(allocator, engineConfig, keys,
 *     List.of(Wiring.lanceCatalog(registry, allocator, freshness),
 *             Wiring.icebergCatalog(icebergConfig, allocator)));
 * }</pre>
 */
public final class Wiring {
  /** How long the request path may serve a cached registry resolution. */
  public static final Duration DEFAULT_FRESHNESS = Duration.ofSeconds(1);

  private Wiring() {}

  /** The {@code lake} catalog: Lance datasets named by lake's registry. */
  public static CatalogPlugin lanceCatalog(
      Registry registry, BufferAllocator allocator, Duration freshness) {
    return new CatalogPlugin(
        new LanceTableResolver(registry, allocator, freshness), new LanceTableReader(allocator));
  }

  /** The {@code iceberg} catalog: tables of one external Iceberg REST catalog, read-only. */
  public static CatalogPlugin icebergCatalog(IcebergConfig config, BufferAllocator allocator) {
    IcebergFederation federation = IcebergFederation.connect(config, allocator);
    return new CatalogPlugin(federation.resolver(), federation.reader(), Optional.of(federation));
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
    List<TableReader> readers = catalogs.stream().map(CatalogPlugin::reader).toList();
    List<AutoCloseable> owned = new ArrayList<>();
    catalogs.forEach(c -> c.owner().ifPresent(owned::add));
    DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
    owned.add(admission);
    try {
      // exact result reuse in front of the engine: deterministic statements at identical sealed
      // snapshots and parameters are answered from the stored result (bounded by bytes)
      QueryEngine engine =
          new ReusingQueryEngine(new DuckDbQueryEngine(engineConfig, readers), readers, reuse);
      return new Components(
          allocator, admission, new Catalogs(resolvers), readers, engine, keys, owned);
    } catch (RuntimeException e) {
      admission.close();
      throw e;
    }
  }
}
