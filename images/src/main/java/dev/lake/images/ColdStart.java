package dev.lake.images;

import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * Measures what a Lambda cold start of the worker costs, in the JVM it runs in (start it fresh,
 * with the image's class path and the worker's environment; {@code images/cold-start.sh} does
 * both): JVM start to {@code main}, the handler's initialization (what the Lambda runtime runs
 * before the first event: class loading, SDK clients, the KMS key ring, the engine), the first
 * (empty) event, and then the priming a snapshot could capture: loading Lance's and DuckDB's native
 * libraries and a first DuckDB query. Uses reflection so this module needs no compile dependency on
 * the worker.
 */
public final class ColdStart {
  private ColdStart() {}

  public static void main(String[] args) throws Exception {
    long jvmToMain = ManagementFactory.getRuntimeMXBean().getUptime();
    long t = System.nanoTime();
    Class<?> handlerClass = Class.forName("dev.lake.lambda.WorkerHandler");
    Object handler = handlerClass.getConstructor().newInstance();
    long init = millisSince(t);

    t = System.nanoTime();
    Class<?> eventClass = Class.forName("com.amazonaws.services.lambda.runtime.events.SQSEvent");
    Object event = eventClass.getConstructor().newInstance();
    eventClass.getMethod("setRecords", List.class).invoke(event, List.of());
    Class<?> contextClass = Class.forName("com.amazonaws.services.lambda.runtime.Context");
    handlerClass.getMethod("handleRequest", eventClass, contextClass).invoke(handler, event, null);
    long firstEvent = millisSince(t);

    t = System.nanoTime();
    Class.forName("org.lance.JniLoader").getMethod("ensureLoaded").invoke(null);
    long lanceNative = millisSince(t);

    t = System.nanoTime();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT 42")) {
      r.next();
    }
    long duckdbFirstQuery = millisSince(t);

    System.out.printf(
        Locale.ROOT,
        "cold-start jvm_to_main_ms=%d handler_init_ms=%d first_event_ms=%d lance_native_ms=%d"
            + " duckdb_first_query_ms=%d total_ms=%d%n",
        jvmToMain,
        init,
        firstEvent,
        lanceNative,
        duckdbFirstQuery,
        jvmToMain + init + firstEvent + lanceNative + duckdbFirstQuery);
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
