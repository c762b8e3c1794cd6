package dev.lake.iceberg.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Starts Iceberg's REST catalog fixture on loopback with the demo tables and prints its URI.
 *
 * <pre>
 * java -cp ... dev.lake.iceberg.demo.IcebergDemoServer [--port 8181] [--dir /tmp/lake-iceberg-demo]
 * bin/lake local --iceberg-rest http://127.0.0.1:8181 --iceberg-allow demo
 * </pre>
 */
public final class IcebergDemoServer {
  private IcebergDemoServer() {}

  public static void main(String[] args) throws Exception {
    int port = 8181;
    Path dir = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        default -> {
          System.err.println("usage: IcebergDemoServer [--port N] [--dir DIR]");
          System.exit(2);
        }
      }
    }
    if (dir == null) {
      dir = Files.createTempDirectory("lake-iceberg-demo");
    }
    Path warehouse = dir.resolve("warehouse");
    Files.createDirectories(warehouse);
    RestCatalogFixture fixture =
        RestCatalogFixture.start(dir, warehouse.toString(), Map.of(), port, Optional.empty());
    if (!fixture.backend().tableExists(TableIdentifier.of("demo", "nation"))) {
      DemoTables.create(fixture.backend());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> closeQuietly(fixture)));
    System.out.println("Iceberg REST catalog: " + fixture.uri());
    System.out.println("tables: iceberg.demo.nation (2 snapshots), iceberg.demo.region");
    System.out.println(
        "try: bin/lake local --iceberg-rest " + fixture.uri() + " --iceberg-allow demo");
    System.out.flush();
    // Jetty runs on daemon threads: keep the JVM alive until interrupted.
    Thread.currentThread().join();
  }

  private static void closeQuietly(RestCatalogFixture fixture) {
    try {
      fixture.close();
    } catch (Exception e) {
      System.err.println("stopping the REST catalog failed: " + e);
    }
  }
}
