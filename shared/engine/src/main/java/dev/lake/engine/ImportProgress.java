package dev.lake.engine;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;
import org.duckdb.DuckDBPreparedStatement;
import org.duckdb.QueryProgress;

/**
 * Reports an import's progress every 200 ms from a daemon thread: DuckDB's own progress of the
 * reading statement (the fraction of the input scanned) and the rows Lance was handed so far.
 */
final class ImportProgress implements AutoCloseable {
  private static final long PERIOD_MS = 200;

  private final DuckDBPreparedStatement statement;
  private final FileImport.Progress progress;
  private final AtomicLong rows = new AtomicLong();
  private final Thread thread;
  private volatile boolean done;

  ImportProgress(DuckDBPreparedStatement statement, FileImport.Progress progress) {
    this.statement = statement;
    this.progress = progress;
    this.thread = new Thread(this::poll, "lake-import-progress");
    thread.setDaemon(true);
    thread.start();
  }

  void rows(long n) {
    rows.addAndGet(n);
  }

  long rows() {
    return rows.get();
  }

  private void poll() {
    while (!done) {
      try {
        Thread.sleep(PERIOD_MS);
      } catch (InterruptedException e) {
        return;
      }
      if (!done) {
        progress.update(fraction(), rows.get());
      }
    }
  }

  /** DuckDB's progress of the statement (0 to 1), or -1 when it reports none. */
  private double fraction() {
    try {
      QueryProgress p = statement.getQueryProgress();
      double pct = p.getPercentage();
      return pct < 0 ? -1 : Math.min(1.0, pct / 100.0);
    } catch (SQLException | RuntimeException e) {
      return -1; // the statement finished or closed between two polls
    }
  }

  /** The import wrote every row: a last update at 100 %. */
  void finish() {
    close();
    progress.update(1.0, rows.get());
  }

  @Override
  public void close() {
    done = true;
    thread.interrupt();
    try {
      thread.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
