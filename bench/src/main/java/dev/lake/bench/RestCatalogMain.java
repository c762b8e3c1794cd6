package dev.lake.bench;

import dev.lake.iceberg.demo.RestCatalogFixture;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Entry point of the bench's Iceberg REST catalog JVM ({@link RestCatalogProcess}): Iceberg's own
 * REST catalog server (the lake-iceberg-demo fixture, a SQLite catalog in {@code <state-dir>}) with
 * the TPC-H table set written from {@code <parquet-dir>} when missing, on a free loopback port — in
 * a process of its own, as a production catalog is an external service — and warmed up ({@link
 * CatalogWarmup}) before it reports ready, as a long-running catalog would be.
 *
 * <p>Line protocol on stdin/stdout (stdout carries nothing else; logs go to stderr): prints {@code
 * ready <uri>} once serving, then answers each command with one line — {@code cold <namespace>
 * <table>} creates a TPC-H nation table through the catalog's backend (not counted) and answers
 * {@code ok}; {@code loads <namespace> <table>} answers the REST loadTable requests served for that
 * table so far. A failed command answers {@code error <message>}. End of stdin (the bench closed
 * it, or died) stops the server and exits.
 */
public final class RestCatalogMain {
  private RestCatalogMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: RestCatalogMain <state-dir> <parquet-dir> <warm-up-ms>");
      System.exit(2);
    }
    PrintStream protocol = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err); // nothing but protocol lines on stdout
    Path dir = Path.of(args[0]);
    Path parquet = Path.of(args[1]);
    Path warehouse = dir.resolve("warehouse");
    Files.createDirectories(warehouse);
    try (RestCatalogFixture fixture =
        RestCatalogFixture.start(dir, warehouse.toString(), Map.of(), 0, Optional.empty())) {
      TpchIceberg.ensure(fixture.backend(), parquet);
      long start = System.nanoTime();
      int loads =
          CatalogWarmup.run(
              fixture.uri(),
              CatalogWarmup.tpch(TpchIceberg.NAMESPACE),
              Duration.ofMillis(Long.parseLong(args[2])));
      System.err.printf(
          "catalog warm-up: %d loadTable requests in %d ms%n",
          loads, (System.nanoTime() - start) / 1_000_000);
      protocol.println("ready " + fixture.uri());
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        protocol.println(answer(fixture, parquet, line));
      }
    }
  }

  static String answer(RestCatalogFixture fixture, Path parquet, String line) {
    String[] words = line.trim().split(" ");
    try {
      if (words.length == 3 && words[0].equals("cold")) {
        TpchIceberg.createNation(fixture.backend(), words[1], words[2], parquet);
        return "ok";
      }
      if (words.length == 3 && words[0].equals("loads")) {
        return Long.toString(fixture.loadTableRequests(words[1], words[2]));
      }
      return "error unknown command: " + line;
    } catch (RuntimeException e) {
      return "error " + String.valueOf(e.getMessage()).replace('\n', ' ');
    }
  }
}
