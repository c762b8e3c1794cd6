package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.time.Duration;

/**
 * Ticket-key ring settings of {@link KmsKeyService}.
 *
 * @param rotateEvery a new data key seals after this (default 1 h, 1 min - 7 d)
 * @param keyLifetime a key unseals this long after creation (default 48 h, at least 2 ×
 *     rotateEvery, at most 30 d); must exceed the longest ticket and pending-job lifetime
 * @param refreshEvery how often replicas pick up keys others generated (default 1 min, 1 s - 1 h)
 * @param maxKeys the in-memory ring bound (default 64, 2 - 1024)
 */
public record KmsKeyConfig(
    Duration rotateEvery, Duration keyLifetime, Duration refreshEvery, int maxKeys) {
  public KmsKeyConfig {
    requireNonNull(rotateEvery, "rotateEvery is null");
    requireNonNull(keyLifetime, "keyLifetime is null");
    requireNonNull(refreshEvery, "refreshEvery is null");
    Bounds.check("rotateEvery", rotateEvery, Duration.ofMinutes(1), Duration.ofDays(7));
    Bounds.check("keyLifetime", keyLifetime, rotateEvery.multipliedBy(2), Duration.ofDays(30));
    Bounds.check("refreshEvery", refreshEvery, Duration.ofSeconds(1), Duration.ofHours(1));
    Bounds.check("maxKeys", maxKeys, 2, 1024);
  }

  public static KmsKeyConfig defaults() {
    return new KmsKeyConfig(Duration.ofHours(1), Duration.ofHours(48), Duration.ofMinutes(1), 64);
  }
}
