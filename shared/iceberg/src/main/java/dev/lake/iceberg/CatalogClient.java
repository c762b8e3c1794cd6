package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one connection to the Iceberg REST catalog: Iceberg's own {@link RESTCatalog} (timeouts,
 * retries, TLS, OAuth2 are its job) plus the translation of its failures into lake errors that name
 * neither secrets nor storage locations. Every call is a point lookup of one table; nothing here
 * lists namespaces or tables. With the deployment's {@link DataLocations}, every table it loads is
 * confined to them ({@link ConfinedTable}).
 */
final class CatalogClient implements AutoCloseable {
  /** The snapshot id lake uses for a table that has no snapshot yet (Iceberg's own "none"). */
  static final long NO_SNAPSHOT = -1L;

  private static final Logger LOG = LoggerFactory.getLogger(CatalogClient.class);

  private final RESTCatalog catalog;
  private final Redactor redactor;
  private final String name;
  private final Optional<DataLocations> locations;

  private CatalogClient(
      RESTCatalog catalog, Redactor redactor, String name, Optional<DataLocations> locations) {
    this.catalog = catalog;
    this.redactor = redactor;
    this.name = name;
    this.locations = locations;
  }

  /**
   * @param locations where the tables' files may lie; empty = unconfined (tests, embedders)
   */
  static CatalogClient connect(IcebergConfig config, Optional<DataLocations> locations) {
    requireNonNull(config, "config is null");
    requireNonNull(locations, "locations is null");
    Redactor redactor = Redactor.of(config);
    Map<String, String> props = catalogProperties(config);
    RESTCatalog catalog = new RESTCatalog();
    try {
      catalog.initialize(IcebergFormat.CATALOG, props);
    } catch (RuntimeException e) {
      closeQuietly(catalog);
      LOG.warn("Iceberg REST catalog initialization failed: {}", redactor.describe(e));
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "The Iceberg REST catalog could not be reached or refused lake's credentials ("
              + e.getClass().getSimpleName()
              + ")");
    }
    return new CatalogClient(catalog, redactor, IcebergFormat.CATALOG, locations);
  }

  /** The properties handed to {@link RESTCatalog#initialize}: a mutable map (Map.of NPEs there). */
  static Map<String, String> catalogProperties(IcebergConfig config) {
    Map<String, String> props = new HashMap<>();
    // FileIO defaults: ResolvingFileIO picks S3FileIO for s3:// and HadoopFileIO for file paths;
    // the URL-connection HTTP client is the one lake ships for S3.
    props.put("http-client.type", "urlconnection");
    props.putAll(config.properties());
    props.put(CatalogProperties.URI, config.uri().toString());
    config.warehouse().ifPresent(w -> props.put(CatalogProperties.WAREHOUSE_LOCATION, w));
    config.prefix().ifPresent(p -> props.put("prefix", p));
    props.put(
        "rest.client.connection-timeout-ms", Long.toString(config.connectTimeout().toMillis()));
    props.put("rest.client.socket-timeout-ms", Long.toString(config.readTimeout().toMillis()));
    props.put("rest.client.max-retries", Integer.toString(config.maxRetries()));
    // Pinned reads need every retained snapshot, not only the refs.
    props.put("snapshot-loading-mode", "all");
    config
        .oauth2()
        .ifPresent(
            o -> {
              props.put("credential", o.credential());
              o.serverUri().ifPresent(u -> props.put("oauth2-server-uri", u.toString()));
              o.scope().ifPresent(s -> props.put("scope", s));
            });
    return props;
  }

  static TableIdentifier identifier(TableRef ref) {
    return TableIdentifier.of(Namespace.of(ref.namespace().split("\\.")), ref.table());
  }

  /**
   * Loads the table's current metadata from the catalog; empty if it does not exist. Confined to
   * the data locations: PERMISSION_DENIED naming the table if its metadata lies outside.
   */
  Optional<Table> load(TableRef ref) {
    Table table;
    try {
      table = catalog.loadTable(identifier(ref));
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      return Optional.empty();
    } catch (RuntimeException e) {
      LOG.warn("Iceberg loadTable of {} failed: {}", ref, redactor.describe(e));
      throw new LakeException(
          ErrorCode.EXTERNAL_UNAVAILABLE,
          "The Iceberg REST catalog failed to load table "
              + ref
              + " ("
              + e.getClass().getSimpleName()
              + "); retry later");
    }
    return Optional.of(locations.isEmpty() ? table : ConfinedTable.of(table, ref, locations.get()));
  }

  /** The identity lake seals for the table's current state. */
  IcebergSnapshot snapshotOf(Table table) {
    Snapshot current = table.currentSnapshot();
    String location = "";
    if (table instanceof HasTableOperations ops && ops.operations().current() != null) {
      String l = ops.operations().current().metadataFileLocation();
      location = l == null ? "" : l;
    }
    return new IcebergSnapshot(
        name,
        table.uuid().toString(),
        current == null ? NO_SNAPSHOT : current.snapshotId(),
        location);
  }

  String catalogName() {
    return name;
  }

  Redactor redactor() {
    return redactor;
  }

  @Override
  public void close() {
    closeQuietly(catalog);
  }

  private static void closeQuietly(RESTCatalog catalog) {
    try {
      catalog.close();
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing the REST catalog failed", e);
    }
  }

  /** Removes every configured secret from text that may reach a log. */
  record Redactor(List<String> secrets) {
    static Redactor of(IcebergConfig config) {
      List<String> secrets = new ArrayList<>();
      config
          .oauth2()
          .ifPresent(
              o -> {
                secrets.add(o.credential());
                int colon = o.credential().indexOf(':');
                if (colon >= 0 && colon + 1 < o.credential().length()) {
                  secrets.add(o.credential().substring(colon + 1));
                }
              });
      config
          .properties()
          .forEach(
              (k, v) -> {
                if (IcebergConfig.isSecretKey(k) && !v.isEmpty()) {
                  secrets.add(v);
                }
              });
      // Longest first, so a secret that contains another is removed whole.
      secrets.sort((a, b) -> b.length() - a.length());
      return new Redactor(List.copyOf(secrets));
    }

    String redact(String text) {
      String out = text == null ? "" : text;
      for (String s : secrets) {
        out = out.replace(s, "<redacted>");
      }
      return out;
    }

    /** The exception chain as one redacted line (class: message ← cause …), for logs only. */
    String describe(Throwable t) {
      StringBuilder sb = new StringBuilder();
      int depth = 0;
      for (Throwable c = t; c != null && depth < 5; c = c.getCause(), depth++) {
        if (depth > 0) {
          sb.append(" <- ");
        }
        sb.append(c.getClass().getName()).append(": ").append(c.getMessage());
      }
      return redact(sb.toString());
    }
  }
}
