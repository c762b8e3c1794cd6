package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What a format contributes to catalog {@code lake} ({@link TableFormat#openRegistered}): the
 * resolver of its registry entries, the reader of its snapshots, and the resource that owns its
 * connections (closed with the process).
 */
public record RegisteredTables(
    EntryResolver resolver, TableReader reader, Optional<AutoCloseable> owner) {
  public RegisteredTables {
    requireNonNull(resolver, "resolver is null");
    requireNonNull(reader, "reader is null");
    requireNonNull(owner, "owner is null");
  }
}
