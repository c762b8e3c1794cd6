package dev.lake.core;

/**
 * The exact, immutable identity of one table's data as of resolution time. A snapshot is what a
 * ticket seals and what execution reads; nothing on the read path ever substitutes "latest".
 */
public sealed interface Snapshot permits LanceSnapshot, IcebergSnapshot {
  /** A short human-readable identity for error messages (never a storage location). */
  String describe();
}
