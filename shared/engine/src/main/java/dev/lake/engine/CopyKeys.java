package dev.lake.engine;

import dev.lake.core.Snapshot;
import dev.lake.engine.SnapshotCache.Key;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/** How {@link SnapshotCache} relates copies of one snapshot by their column sets. */
final class CopyKeys {
  private CopyKeys() {}

  /**
   * {@code key} with the columns of every copy of its snapshot in {@code cached}, in the order of
   * the {@code table}'s columns.
   */
  static Key widen(Key key, Schema table, Collection<Key> cached) {
    Set<String> wanted = new HashSet<>(key.columns());
    for (Key k : cached) {
      if (k.snapshot().equals(key.snapshot())) {
        wanted.addAll(k.columns());
      }
    }
    if (wanted.size() == key.columns().size()) {
      return key;
    }
    return new Key(
        key.snapshot(),
        table.getFields().stream().map(f -> f.getName()).filter(wanted::contains).toList());
  }

  /**
   * True if {@code k} is another copy of {@code wide}'s snapshot whose columns {@code wide} has.
   */
  static boolean coveredBy(Key k, Key wide) {
    return !k.equals(wide)
        && k.snapshot().equals(wide.snapshot())
        && wide.columns().containsAll(k.columns());
  }

  /**
   * The narrowest key in {@code cached} of {@code key}'s snapshot having all its columns, or null.
   */
  static Key narrowestCovering(Key key, Collection<Key> cached) {
    Key best = null;
    for (Key k : cached) {
      if (k.snapshot().equals(key.snapshot())
          && k.columns().containsAll(key.columns())
          && (best == null || k.columns().size() < best.columns().size())) {
        best = k;
      }
    }
    return best;
  }

  /** The bytes of the copies of {@code snapshot} among {@code copies}. */
  static long bytesOf(Snapshot snapshot, Map<Key, SnapshotCache.Table> copies) {
    long bytes = 0;
    for (Map.Entry<Key, SnapshotCache.Table> e : copies.entrySet()) {
      if (e.getKey().snapshot().equals(snapshot)) {
        bytes += e.getValue().bytes();
      }
    }
    return bytes;
  }
}
