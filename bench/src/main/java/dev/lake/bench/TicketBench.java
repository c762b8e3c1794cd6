package dev.lake.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableRef;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.ticket.StatementTicket;
import dev.lake.core.ticket.TicketConfig;
import dev.lake.core.ticket.TicketKind;
import dev.lake.core.ticket.TicketSealer;
import dev.lake.lance.LanceSnapshot;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * P5 under JMH: sealing and opening a statement ticket (TPC-H Q1, one Lance snapshot) with the core
 * {@link TicketSealer} over an in-memory {@link LocalKeyRing} — no remote call — against the floor
 * of the same work: one AES-256-GCM encryption and decryption of a plaintext of the same size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TicketBench {
  private TicketSealer sealer;
  private Principal principal;
  private JsonNode payload;
  private SecretKeySpec key;
  private byte[] plaintext;
  private Cipher cipher;
  private final SecureRandom random = new SecureRandom();

  @Setup
  public void setup() throws Exception {
    LocalKeyRing ring = LocalKeyRing.ephemeral();
    sealer = new TicketSealer(ring, TicketConfig.defaults(), Clock.systemUTC());
    principal = Principal.of("bench", "bench-user", Set.of("lake.tpch"));
    SnapshotSet snapshots =
        new SnapshotSet(
            Map.of(
                TableRef.parse("lake.tpch.lineitem"),
                new LanceSnapshot("file:///data/lake/tpch/lineitem.lance", "inc-1", 3)));
    String sql = TpchQueries.forCatalog("lake").get("Q1");
    payload = new StatementTicket(sql, List.of(), snapshots).toJson();
    byte[] ticket = sealer.seal(TicketKind.STATEMENT, principal, Duration.ofMinutes(5), payload);
    plaintext = new byte[ticket.length - 16 - 30];
    random.nextBytes(plaintext);
    key = new SecretKeySpec(ring.current().key(), "AES");
    cipher = Cipher.getInstance("AES/GCM/NoPadding");
  }

  @Benchmark
  public JsonNode sealAndOpen() {
    byte[] ticket = sealer.seal(TicketKind.STATEMENT, principal, Duration.ofMinutes(5), payload);
    return sealer.unseal(ticket, TicketKind.STATEMENT, principal);
  }

  @Benchmark
  public byte[] aesGcmFloor() throws Exception {
    byte[] nonce = new byte[12];
    random.nextBytes(nonce);
    cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
    byte[] sealed = cipher.doFinal(plaintext);
    cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, nonce));
    return cipher.doFinal(sealed);
  }
}
