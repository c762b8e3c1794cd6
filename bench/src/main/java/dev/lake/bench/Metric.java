package dev.lake.bench;

import java.util.List;

/** One measurement of the bench, with its baseline in the same run. */
interface Metric {
  /** P1 … M1. */
  String id();

  /** One line: what is measured against what. */
  String title();

  /**
   * Measures and returns one or more results. A missing lake part yields {@link
   * Result#notAvailable}; an exception means the bench itself failed.
   */
  List<Result> run(BenchContext context) throws Exception;
}
