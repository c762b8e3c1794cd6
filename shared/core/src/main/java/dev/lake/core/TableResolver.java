package dev.lake.core;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Resolves table references of one catalog (core's {@code lake}, or a format's own such as {@code
 * iceberg}) to exact snapshots. Implementations cache current resolutions with a bound; point
 * checks of sealed snapshots never fall forward to a newer one.
 */
public interface TableResolver {
  /** The catalog name this resolver serves, e.g. {@code lake}. */
  String catalog();

  /** The current snapshot of {@code ref}, or {@link LakeException#tableNotFound} if missing. */
  Snapshot resolve(TableRef ref);

  /** The tables this resolver may list in metadata, without enumerating external catalogs. */
  List<TableRef> listTables();

  /**
   * Confirms that a sealed snapshot still denotes the same table (same incarnation / table UUID),
   * throwing {@link ErrorCode#SNAPSHOT_GONE} if it does not. Called on DoGet and by workers.
   */
  void verify(TableRef ref, Snapshot sealed);

  /**
   * {@link #verify} for every table of one statement that this resolver serves (in the statement's
   * order), all of them checked before the statement runs; a resolver whose checks are round trips
   * may run them concurrently. Throws the failure of the first table (in {@code sealed}'s order)
   * whose check failed. The default checks one after another.
   */
  default void verifyAll(Map<TableRef, Snapshot> sealed) {
    sealed.forEach(this::verify);
  }

  /**
   * Starts {@link #verifyAll}'s checks and returns without waiting for those that are round trips,
   * so the caller can execute meanwhile; {@link Verification#await} then throws what {@link
   * #verifyAll} would have thrown. The default checks now, on the calling thread, and throws a
   * failure at once (so nothing executes).
   */
  default Verification startVerifyAll(Map<TableRef, Snapshot> sealed) {
    verifyAll(sealed);
    return Verification.passed();
  }

  /** The current snapshot, or empty when the table is missing. */
  default Optional<Snapshot> find(TableRef ref) {
    try {
      return Optional.of(resolve(ref));
    } catch (LakeException e) {
      if (e.code() == ErrorCode.TABLE_NOT_FOUND) {
        return Optional.empty();
      }
      throw e;
    }
  }
}
