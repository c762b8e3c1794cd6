package dev.lake.core.ticket;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import dev.lake.core.KeyService;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * Seals claims into opaque tickets with the one {@link SealedEnvelope} format and opens them again,
 * failing closed. See {@code docs/tickets.md} for the wire format and its versioning rule. The
 * claims (tenant, principal, audience, issued-at, expiry, payload) are compact JSON inside the
 * ciphertext; the envelope header is the associated data.
 */
public final class TicketSealer {
  /** The only envelope version this build reads and writes. */
  public static final int ENVELOPE_VERSION = SealedEnvelope.VERSION;

  /** Tickets larger than this are rejected before any crypto work. */
  public static final int MAX_TICKET_BYTES = 64 * 1024;

  private static final byte[] NO_CONTEXT = new byte[0];

  private final SealedEnvelope envelope;
  private final TicketConfig config;
  private final Clock clock;

  public TicketSealer(KeyService keys, TicketConfig config, Clock clock) {
    this.envelope = new SealedEnvelope(requireNonNull(keys, "keys is null"));
    this.config = requireNonNull(config, "config is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  public TicketConfig config() {
    return config;
  }

  /**
   * Seals {@code payload} for {@code principal}, valid for {@code ttl} from now. A ticket over
   * {@link #MAX_TICKET_BYTES} is refused with INVALID_ARGUMENT (unseal would reject it).
   */
  public byte[] seal(TicketKind kind, Principal principal, Duration ttl, JsonNode payload) {
    requireNonNull(kind, "kind is null");
    requireNonNull(principal, "principal is null");
    requireNonNull(ttl, "ttl is null");
    requireNonNull(payload, "payload is null");
    Instant now = clock.instant();
    ObjectNode claims = Json.mapper().createObjectNode();
    claims.put("tenant", principal.tenant());
    claims.put("principal", principal.id());
    claims.put("aud", config.audience());
    claims.put("iat", now.toEpochMilli());
    claims.put("exp", now.plus(ttl).toEpochMilli());
    claims.set("payload", payload);
    byte[] sealed;
    try {
      sealed = envelope.seal(kind, NO_CONTEXT, Json.mapper().writeValueAsBytes(claims));
    } catch (IOException e) {
      throw new LakeException(ErrorCode.INTERNAL, "Cannot encode ticket claims", e);
    }
    // never issue what unseal would refuse: an oversized ticket fails here, at issue time
    if (sealed.length > MAX_TICKET_BYTES) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "The request does not fit in a ticket: its SQL text, bound parameters and snapshots"
              + " seal to "
              + sealed.length
              + " bytes, over the "
              + MAX_TICKET_BYTES
              + "-byte ticket limit; shorten the statement or bind smaller parameters");
    }
    return sealed;
  }

  /**
   * Opens {@code ticket}, checking kind, key, integrity, audience, expiry and that the caller is
   * the principal it was sealed for. Returns the payload.
   */
  public JsonNode unseal(byte[] ticket, TicketKind expected, Principal caller) {
    requireNonNull(ticket, "ticket is null");
    requireNonNull(expected, "expected is null");
    requireNonNull(caller, "caller is null");
    if (ticket.length > MAX_TICKET_BYTES) {
      throw invalid("Ticket is not a lake ticket (bad length)");
    }
    byte[] plaintext;
    try {
      plaintext = envelope.open(ticket, expected, NO_CONTEXT);
    } catch (SealedEnvelope.Unopenable e) {
      throw invalid(message(e, expected));
    }
    JsonNode claims;
    try {
      claims = Json.mapper().readTree(plaintext);
    } catch (IOException e) {
      throw invalid("Ticket claims are unreadable");
    }
    Instant now = clock.instant();
    if (!config.audience().equals(claims.path("aud").asText())) {
      throw new LakeException(ErrorCode.TICKET_FOREIGN, "Ticket was issued for another deployment");
    }
    long exp = claims.path("exp").asLong(0);
    long iat = claims.path("iat").asLong(Long.MAX_VALUE);
    if (now.toEpochMilli() > exp + config.clockSkew().toMillis()) {
      throw new LakeException(
          ErrorCode.TICKET_EXPIRED, "Ticket expired; run the statement again for a new ticket");
    }
    if (iat > now.toEpochMilli() + config.clockSkew().toMillis()) {
      throw invalid("Ticket was issued in the future; check replica clocks");
    }
    if (!caller.tenant().equals(claims.path("tenant").asText())
        || !caller.id().equals(claims.path("principal").asText())) {
      throw new LakeException(ErrorCode.TICKET_FOREIGN, "Ticket belongs to another principal");
    }
    JsonNode payload = claims.get("payload");
    if (payload == null || !payload.isObject()) {
      throw invalid("Ticket has no payload");
    }
    return payload;
  }

  /** The expiry sealed into a ticket this sealer just produced for {@code ttl}. */
  public Instant expiryFor(Duration ttl) {
    return clock.instant().plus(ttl);
  }

  private static String message(SealedEnvelope.Unopenable e, TicketKind expected) {
    return switch (e.failure()) {
      case BAD_LENGTH -> "Ticket is not a lake ticket (bad length)";
      case NOT_AN_ENVELOPE -> "Ticket is not a lake ticket";
      case VERSION ->
          "Ticket envelope version "
              + e.version()
              + " is not supported by this server (expects "
              + ENVELOPE_VERSION
              + "); request a new ticket";
      case KIND -> "Ticket is not a " + expected.name().toLowerCase(Locale.ROOT) + " ticket";
      case BAD_HEADER -> "Ticket is not a lake ticket (bad header)";
      case UNKNOWN_KEY ->
          "Ticket was sealed with a key this server does not hold; request a new ticket";
      case INTEGRITY -> "Ticket failed its integrity check";
    };
  }

  private static LakeException invalid(String message) {
    return new LakeException(ErrorCode.TICKET_INVALID, message);
  }
}
