package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.CatalogPlugin;
import dev.lake.core.Catalogs;
import dev.lake.core.KeyService;
import dev.lake.core.QueryEngine;
import dev.lake.core.TableReader;
import dev.lake.core.TableResolver;
import dev.lake.engine.DuckDbQueryEngine;
import dev.lake.engine.DuckDbSqlAdmission;
import dev.lake.engine.EngineConfig;
import dev.lake.engine.ResultReuseConfig;
import dev.lake.engine.ReusingQueryEngine;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The real engine's {@link Components} over catalog plugins, for the front door's tests: DuckDB
 * admission and engine with exact result reuse in front, as the application assembles them. The
 * front door itself never links the engine; its tests do, to run real SQL.
 */
public final class EngineComponents {
  private EngineComponents() {}

  /** DuckDB admission and engine over the given catalogs, with result reuse at its defaults. */
  public static Components over(
      BufferAllocator allocator,
      EngineConfig engineConfig,
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
      QueryEngine engine =
          new ReusingQueryEngine(
              new DuckDbQueryEngine(engineConfig, readers), readers, ResultReuseConfig.defaults());
      return new Components(
          allocator, admission, new Catalogs(resolvers), readers, engine, keys, owned);
    } catch (RuntimeException e) {
      admission.close();
      throw e;
    }
  }
}
