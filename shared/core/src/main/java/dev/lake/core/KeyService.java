package dev.lake.core;

import java.util.Optional;

/**
 * Ticket keys. {@link #current()} seals; {@link #find(String)} unseals by key id so replicas that
 * share a bounded key ring rotate without breaking live tickets. Implementations must not call a
 * remote service on the request path.
 */
public interface KeyService {
  SealingKey current();

  Optional<SealingKey> find(String keyId);
}
