package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * lake's own control-plane registry of Lance tables: {@code lake.<namespace>.<table>} → location
 * and incarnation. Registration is a trusted operator action, never SQL.
 */
public interface Registry {
  /** Registers {@code ref} at {@code location} with a fresh incarnation; fails if it exists. */
  Entry register(TableRef ref, String location);

  /** Removes {@code ref}; returns whether it existed. */
  boolean unregister(TableRef ref);

  Optional<Entry> find(TableRef ref);

  List<Entry> list();

  /** One registered table. */
  record Entry(TableRef ref, String location, String incarnation, long registeredAtMillis) {
    public Entry {
      requireNonNull(ref, "ref is null");
      requireNonNull(location, "location is null");
      requireNonNull(incarnation, "incarnation is null");
      if (!ref.catalog().equals(TableRef.LAKE)) {
        throw new LakeException(
            ErrorCode.INVALID_ARGUMENT,
            "Only lake.<namespace>.<table> names can be registered: " + ref);
      }
    }
  }
}
