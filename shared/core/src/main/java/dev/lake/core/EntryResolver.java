package dev.lake.core;

/**
 * A format's share of catalog {@code lake}: how a table registered in lake's {@link Registry} under
 * this format's tag resolves to an exact snapshot, and whether a sealed snapshot still denotes it.
 * {@link LakeCatalog} hands each entry to the resolver of the format its tag names, caches the
 * resolution and fails closed for tags no installed format serves.
 */
public interface EntryResolver {
  /**
   * The current snapshot of the table {@code entry} registers; a table that is registered but
   * cannot be read fails with {@link ErrorCode#EXTERNAL_UNAVAILABLE}.
   */
  Snapshot resolve(Registry.Entry entry);

  /**
   * Whether {@code sealed} still denotes the table {@code entry} registers (same incarnation and
   * location); false for a snapshot this format does not own. Never looks at the current version.
   */
  boolean denotes(Registry.Entry entry, Snapshot sealed);
}
