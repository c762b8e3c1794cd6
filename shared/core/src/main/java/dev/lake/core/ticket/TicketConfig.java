package dev.lake.core.ticket;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import java.time.Duration;

/**
 * Ticket settings, validated once at start-up.
 *
 * @param audience the deployment a ticket is valid for; replicas of one deployment share it
 * @param statementTtl how long a statement ticket stays redeemable (default 5 min, 10 s - 24 h)
 * @param clockSkew tolerated clock difference between replicas (default 30 s, 0 - 5 min)
 */
public record TicketConfig(String audience, Duration statementTtl, Duration clockSkew) {
  public static final String DEFAULT_AUDIENCE = "lake";
  public static final Duration DEFAULT_STATEMENT_TTL = Duration.ofMinutes(5);
  public static final Duration MIN_STATEMENT_TTL = Duration.ofSeconds(10);
  public static final Duration MAX_STATEMENT_TTL = Duration.ofHours(24);
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(30);
  public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);

  public TicketConfig {
    requireNonNull(audience, "audience is null");
    requireNonNull(statementTtl, "statementTtl is null");
    requireNonNull(clockSkew, "clockSkew is null");
    if (!audience.matches("[A-Za-z0-9_.:-]{1,128}")) {
      throw new IllegalArgumentException("audience must be 1-128 of [A-Za-z0-9_.:-]: " + audience);
    }
    Bounds.check("statementTtl", statementTtl, MIN_STATEMENT_TTL, MAX_STATEMENT_TTL);
    Bounds.check("clockSkew", clockSkew, Duration.ZERO, MAX_CLOCK_SKEW);
  }

  public static TicketConfig defaults() {
    return new TicketConfig(DEFAULT_AUDIENCE, DEFAULT_STATEMENT_TTL, DEFAULT_CLOCK_SKEW);
  }
}
