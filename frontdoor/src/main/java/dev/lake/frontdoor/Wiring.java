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
import dev.lake.engine.lance.LanceTableReader;
import dev.lake.engine.lance.LanceTableResolver;
import java.time.Duration;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Builds the real components from catalog plugins. Local mode and {@code serve} differ only in
 * where the registry, key ring and principals live; both call {@link #components}. To serve one
 * more catalog, build its {@link CatalogPlugin} (resolver + reader) and add it to the list, e.g.
 *
 * <pre>{@code
 * Wiring.components(allocator, engineConfig, keys,
 *     List.of(Wiring.lanceCatalog(registry, allocator, freshness),
 *             new CatalogPlugin(new IcebergTableResolver(...), new IcebergTableReader(...))));
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

  /** DuckDB admission and engine over the given catalogs. */
  public static Components components(
      BufferAllocator allocator,
      EngineConfig engineConfig,
      KeyService keys,
      List<CatalogPlugin> catalogs) {
    requireNonNull(catalogs, "catalogs is null");
    List<TableResolver> resolvers = catalogs.stream().map(CatalogPlugin::resolver).toList();
    List<TableReader> readers = catalogs.stream().map(CatalogPlugin::reader).toList();
    DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
    try {
      QueryEngine engine = new DuckDbQueryEngine(engineConfig, readers);
      return new Components(
          allocator, admission, new Catalogs(resolvers), readers, engine, keys, List.of(admission));
    } catch (RuntimeException e) {
      admission.close();
      throw e;
    }
  }
}
