package dev.lake.aws;

import static java.util.Objects.requireNonNull;

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
    if (rotateEvery.compareTo(Duration.ofMinutes(1)) < 0
        || rotateEvery.compareTo(Duration.ofDays(7)) > 0) {
      throw new IllegalArgumentException("rotateEvery must be between 1 min and 7 d");
    }
    if (keyLifetime.compareTo(rotateEvery.multipliedBy(2)) < 0
        || keyLifetime.compareTo(Duration.ofDays(30)) > 0) {
      throw new IllegalArgumentException(
          "keyLifetime must be between 2 x rotateEvery and 30 d: " + keyLifetime);
    }
    if (refreshEvery.compareTo(Duration.ofSeconds(1)) < 0
        || refreshEvery.compareTo(Duration.ofHours(1)) > 0) {
      throw new IllegalArgumentException("refreshEvery must be between 1 s and 1 h");
    }
    if (maxKeys < 2 || maxKeys > 1024) {
      throw new IllegalArgumentException("maxKeys must be between 2 and 1024: " + maxKeys);
    }
  }

  public static KmsKeyConfig defaults() {
    return new KmsKeyConfig(Duration.ofHours(1), Duration.ofHours(48), Duration.ofMinutes(1), 64);
  }
}
