package dev.lake.core;

import java.util.List;

/**
 * Implemented by a {@link TableReader} that can cut a sealed snapshot into disjoint splits for the
 * durable tier's fan-out. A split is an ordinary snapshot of the same format, restricted to some of
 * the snapshot's immutable units (Lance fragments, Iceberg data files with their deletes), so it is
 * sealed, verified, cached and read like any snapshot — an engine in another process needs nothing
 * new to read one. Together the splits hold every row of the snapshot exactly once.
 */
public interface SplitSource {
  /**
   * {@code snapshot} of {@code ref} as at most {@code maxSplits} disjoint restricted snapshots of
   * about {@code targetRows} rows each (whole units; a unit larger than the target is a split of
   * its own), in unit order; a one-element list holding {@code snapshot} itself when it does not
   * split (one unit, or fewer rows than two targets). Rows, not bytes: both formats record them in
   * metadata, and a split reads only the columns its statement projects. An already restricted
   * snapshot never splits further. Reads metadata only; throws like a scan ({@link
   * ErrorCode#SNAPSHOT_GONE}).
   */
  List<Snapshot> splits(TableRef ref, Snapshot snapshot, long targetRows, int maxSplits);
}
