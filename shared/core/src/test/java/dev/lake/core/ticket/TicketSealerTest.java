package dev.lake.core.ticket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.testing.TestSnapshot;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TicketSealerTest {
  private static final Principal ALICE = Principal.of("acme", "alice", Set.of("lake.tpch"));
  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

  private final LocalKeyRing ring = LocalKeyRing.ephemeral();
  private final TicketSealer sealer = sealerAt(NOW, ring, "lake");

  private static TicketSealer sealerAt(Instant now, LocalKeyRing ring, String audience) {
    return new TicketSealer(
        ring,
        new TicketConfig(audience, Duration.ofMinutes(5), Duration.ofSeconds(30)),
        Clock.fixed(now, ZoneOffset.UTC));
  }

  private static StatementTicket statement() {
    return new StatementTicket(
        "SELECT * FROM lake.tpch.nation WHERE n_nationkey = ?",
        Arrays.asList(7L, null, new BigDecimal("0.05"), LocalDate.of(1994, 1, 1)),
        new SnapshotSet(
            Map.of(
                new TableRef("lake", "tpch", "nation"), new TestSnapshot("/data/nation.lance", 3),
                new TableRef("iceberg", "a.b", "t"), new TestSnapshot("uuid-1", 42))));
  }

  private byte[] sealStatement() {
    return sealer.seal(TicketKind.STATEMENT, ALICE, Duration.ofMinutes(5), statement().toJson());
  }

  @Test
  void unseal_returnsTheSealedStatement_whenUnchanged() {
    // GIVEN a sealed statement ticket
    byte[] ticket = sealStatement();
    // WHEN the same principal unseals it
    JsonNode payload = sealer.unseal(ticket, TicketKind.STATEMENT, ALICE);
    // THEN the SQL, parameters and snapshot set come back exactly
    assertThat(StatementTicket.fromJson(payload)).isEqualTo(statement());
  }

  @Test
  void seal_refusesAtIssue_aTicketUnsealWouldReject() {
    // GIVEN a statement whose SQL alone is larger than a ticket may be
    StatementTicket big =
        new StatementTicket(
            "SELECT 1 /* " + "x".repeat(TicketSealer.MAX_TICKET_BYTES) + " */",
            List.of(),
            statement().snapshots());
    // WHEN it is sealed THEN it is refused now, naming the limit, not at redemption
    assertThatThrownBy(
            () -> sealer.seal(TicketKind.STATEMENT, ALICE, Duration.ofMinutes(5), big.toJson()))
        .isInstanceOfSatisfying(
            LakeException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("over the 65536-byte ticket limit");
  }

  @Test
  void seal_leavesNoPlaintext_inTheTicket() {
    String text = new String(sealStatement(), StandardCharsets.ISO_8859_1);
    assertThat(text)
        .doesNotContain("SELECT", "nation", "/data", "inc-1", "alice", "acme", "uuid-1");
  }

  @Test
  void unseal_rejects_whenAnyByteIsTampered() {
    byte[] ticket = sealStatement();
    for (int i = 0; i < ticket.length; i++) {
      byte[] copy = ticket.clone();
      copy[i] ^= 0x01;
      assertThatThrownBy(() -> sealer.unseal(copy, TicketKind.STATEMENT, ALICE))
          .isInstanceOf(LakeException.class)
          .extracting(e -> ((LakeException) e).code())
          .isIn(ErrorCode.TICKET_INVALID);
    }
  }

  @Test
  void unseal_rejects_whenTruncated() {
    byte[] ticket = sealStatement();
    assertThatThrownBy(
            () ->
                sealer.unseal(
                    Arrays.copyOf(ticket, ticket.length - 1), TicketKind.STATEMENT, ALICE))
        .hasMessage("Ticket failed its integrity check");
    assertThatThrownBy(() -> sealer.unseal(new byte[3], TicketKind.STATEMENT, ALICE))
        .hasMessage("Ticket is not a lake ticket (bad length)");
  }

  @Test
  void unseal_rejects_whenEnvelopeVersionIsUnknown() {
    byte[] ticket = sealStatement();
    ticket[2] = 3;
    assertThatThrownBy(() -> sealer.unseal(ticket, TicketKind.STATEMENT, ALICE))
        .isInstanceOf(LakeException.class)
        .hasMessage(
            "Ticket envelope version 3 is not supported by this server (expects 2); request a new ticket");
  }

  @Test
  void unseal_rejects_aVersion1TicketOfThePreviousRelease_withAClearMessage() {
    // GIVEN a ticket in the version-1 layout (same framing, version byte 1)
    byte[] ticket = sealStatement();
    ticket[2] = 1;
    // WHEN it is redeemed THEN it fails closed, telling the client to get a new ticket
    assertThatThrownBy(() -> sealer.unseal(ticket, TicketKind.STATEMENT, ALICE))
        .hasMessage(
            "Ticket envelope version 1 is not supported by this server (expects 2); request a new ticket")
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.TICKET_INVALID);
  }

  @Test
  void seal_framesTicketsWithTheOneEnvelopeFormat() {
    // GIVEN a sealed statement
    byte[] ticket = sealStatement();
    // THEN it starts with the one envelope framing: magic, version 2, kind STATEMENT
    assertThat(SealedEnvelope.looksSealed(ticket)).isTrue();
    assertThat(ticket[2]).isEqualTo((byte) SealedEnvelope.VERSION);
    assertThat(ticket[3]).isEqualTo((byte) 1);
  }

  @Test
  void unseal_rejects_whenKindDiffers() {
    byte[] ticket = sealStatement();
    assertThatThrownBy(() -> sealer.unseal(ticket, TicketKind.RESULT_PART, ALICE))
        .hasMessage("Ticket is not a result_part ticket");
  }

  @Test
  void unseal_rejects_whenExpired() {
    byte[] ticket = sealStatement();
    TicketSealer later = sealerAt(NOW.plus(Duration.ofMinutes(6)), ring, "lake");
    assertThatThrownBy(() -> later.unseal(ticket, TicketKind.STATEMENT, ALICE))
        .isInstanceOf(LakeException.class)
        .hasMessage("Ticket expired; run the statement again for a new ticket")
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.TICKET_EXPIRED);
  }

  @Test
  void unseal_accepts_withinClockSkew() {
    byte[] ticket = sealStatement();
    TicketSealer later = sealerAt(NOW.plus(Duration.ofMinutes(5)).plusSeconds(20), ring, "lake");
    assertThat(later.unseal(ticket, TicketKind.STATEMENT, ALICE)).isNotNull();
  }

  @Test
  void unseal_rejects_whenPrincipalDiffers() {
    byte[] ticket = sealStatement();
    Principal bob = Principal.of("acme", "bob", Set.of("lake.tpch"));
    assertThatThrownBy(() -> sealer.unseal(ticket, TicketKind.STATEMENT, bob))
        .hasMessage("Ticket belongs to another principal")
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.TICKET_FOREIGN);
  }

  @Test
  void unseal_rejects_whenTenantDiffers() {
    byte[] ticket = sealStatement();
    Principal otherTenant = Principal.of("globex", "alice", Set.of("lake.tpch"));
    assertThatThrownBy(() -> sealer.unseal(ticket, TicketKind.STATEMENT, otherTenant))
        .hasMessage("Ticket belongs to another principal");
  }

  @Test
  void unseal_rejects_whenAudienceDiffers() {
    byte[] ticket = sealStatement();
    TicketSealer other = sealerAt(NOW, ring, "other-deployment");
    assertThatThrownBy(() -> other.unseal(ticket, TicketKind.STATEMENT, ALICE))
        .hasMessage("Ticket was issued for another deployment");
  }

  @Test
  void unseal_rejects_whenKeyIsUnknown() {
    byte[] ticket = sealStatement();
    TicketSealer other = sealerAt(NOW, LocalKeyRing.ephemeral(), "lake");
    assertThatThrownBy(() -> other.unseal(ticket, TicketKind.STATEMENT, ALICE))
        .hasMessage("Ticket was sealed with a key this server does not hold; request a new ticket");
  }

  @Test
  void unseal_accepts_ticketsOfAnOlderKeyStillInTheRing() {
    // GIVEN a ticket sealed by a replica whose ring has one key
    LocalKeyRing old = LocalKeyRing.ephemeral();
    byte[] ticket =
        sealerAt(NOW, old, "lake")
            .seal(TicketKind.STATEMENT, ALICE, Duration.ofMinutes(1), statement().toJson());
    // WHEN another replica has rotated to a new current key but keeps the old one
    LocalKeyRing rotated =
        LocalKeyRing.of(List.of(old.current(), LocalKeyRing.ephemeral().current()));
    // THEN the ticket still opens there
    assertThat(sealerAt(NOW, rotated, "lake").unseal(ticket, TicketKind.STATEMENT, ALICE))
        .isNotNull();
  }

  @Test
  void seal_usesAFreshNonce_eachTime() {
    assertThat(sealStatement()).isNotEqualTo(sealStatement());
  }

  @Test
  void config_defaults_areWithinBounds() {
    TicketConfig config = TicketConfig.defaults();
    assertThat(config.audience()).isEqualTo("lake");
    assertThat(config.statementTtl()).isEqualTo(Duration.ofMinutes(5));
    assertThat(config.clockSkew()).isEqualTo(Duration.ofSeconds(30));
    assertThatThrownBy(() -> new TicketConfig("lake", Duration.ofSeconds(1), Duration.ZERO))
        .hasMessageContaining("statementTtl must be between");
    assertThatThrownBy(() -> new TicketConfig("lake", Duration.ofMinutes(1), Duration.ofHours(1)))
        .hasMessageContaining("clockSkew must be between");
    assertThatThrownBy(() -> new TicketConfig("bad audience", Duration.ofMinutes(1), Duration.ZERO))
        .hasMessageContaining("audience must be");
  }
}
