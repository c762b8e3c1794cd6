package dev.lake.core;

/**
 * The exact, immutable identity of one table's data as of resolution time. A snapshot is what a
 * ticket seals and what execution reads; nothing on the read path ever substitutes "latest". Each
 * table format's module owns its snapshot record and registers a {@link TableFormat} that encodes
 * it inside sealed envelopes; a snapshot type without an installed format cannot be sealed.
 */
public interface Snapshot {
  /** A short human-readable identity for error messages (never a storage location). */
  String describe();
}
