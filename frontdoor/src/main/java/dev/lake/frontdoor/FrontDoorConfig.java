package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Bounds;
import dev.lake.core.ticket.TicketConfig;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Settings of the Flight SQL listener and its admission limits, validated at construction.
 *
 * @param host address to bind; anything but loopback needs TLS or {@code trustedTlsProxy}
 * @param port TCP port, 0 picks a free one (default 31337)
 * @param tlsCertificate PEM certificate chain; present together with {@code tlsPrivateKey}
 * @param tlsPrivateKey PEM PKCS#8 private key
 * @param trustedTlsProxy the deployment declares a TLS-terminating proxy in front of a plaintext
 *     non-loopback listener
 * @param tickets audience, statement-ticket lifetime and clock skew
 * @param preparedTtl lifetime of a prepared-statement handle (default 12 h, 1 min - 7 d)
 * @param maxConcurrentQueries global cap of planning + streaming calls (default 8, 1 - 1024)
 * @param maxConcurrentQueriesPerTenant per-tenant cap, taken before the global one (default 4, 1 -
 *     maxConcurrentQueries)
 * @param maxConcurrentPartDownloads global cap of durable result-part downloads (DoGet of a
 *     RESULT_PART ticket), a gate of their own: a part download streams a finished Arrow IPC part
 *     and runs no engine work, so it takes none of the query slots above (default 16, 1 - 1024)
 * @param maxConcurrentPartDownloadsPerTenant per-tenant cap of part downloads, taken before the
 *     global one (default 8, 1 - maxConcurrentPartDownloads)
 * @param queueWait longest wait for a query or part-download slot before OVERLOADED (default 30 s,
 *     0 - 10 min)
 * @param maxSqlBytes longest accepted SQL text in UTF-8 bytes (default 256 KiB, 1 KiB - 1 MiB)
 * @param maxInboundMessageBytes gRPC inbound message cap (default 16 MiB, 1 MiB - 256 MiB)
 * @param idleStreamTimeout longest a DoGet client may leave a ready batch unread before its stream
 *     ends with TIMED_OUT and its slot is released (default 60 s, 1 s - 1 h)
 * @param budgets per-tenant scanned, result and egress budgets per window (default unlimited)
 */
@RecordBuilder
@RecordBuilder.Options(emptyDefaultForOptional = true)
public record FrontDoorConfig(
    @RecordBuilder.Initializer("DEFAULT_HOST") String host,
    @RecordBuilder.Initializer("DEFAULT_PORT") int port,
    Optional<Path> tlsCertificate,
    Optional<Path> tlsPrivateKey,
    boolean trustedTlsProxy,
    @RecordBuilder.Initializer("DEFAULT_TICKETS") TicketConfig tickets,
    @RecordBuilder.Initializer("DEFAULT_PREPARED_TTL") Duration preparedTtl,
    @RecordBuilder.Initializer("DEFAULT_MAX_CONCURRENT_QUERIES") int maxConcurrentQueries,
    @RecordBuilder.Initializer("DEFAULT_MAX_CONCURRENT_QUERIES_PER_TENANT")
        int maxConcurrentQueriesPerTenant,
    @RecordBuilder.Initializer("DEFAULT_MAX_CONCURRENT_PART_DOWNLOADS")
        int maxConcurrentPartDownloads,
    @RecordBuilder.Initializer("DEFAULT_MAX_CONCURRENT_PART_DOWNLOADS_PER_TENANT")
        int maxConcurrentPartDownloadsPerTenant,
    @RecordBuilder.Initializer("DEFAULT_QUEUE_WAIT") Duration queueWait,
    @RecordBuilder.Initializer("DEFAULT_MAX_SQL_BYTES") int maxSqlBytes,
    @RecordBuilder.Initializer("DEFAULT_MAX_INBOUND_MESSAGE_BYTES") int maxInboundMessageBytes,
    @RecordBuilder.Initializer("DEFAULT_IDLE_STREAM_TIMEOUT") Duration idleStreamTimeout,
    @RecordBuilder.Initializer("DEFAULT_BUDGETS") BudgetConfig budgets)
    implements FrontDoorConfigBuilder.With {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 31337;
  public static final TicketConfig DEFAULT_TICKETS = TicketConfig.defaults();
  public static final Duration DEFAULT_PREPARED_TTL = Duration.ofHours(12);
  public static final Duration MIN_PREPARED_TTL = Duration.ofMinutes(1);
  public static final Duration MAX_PREPARED_TTL = Duration.ofDays(7);
  public static final int DEFAULT_MAX_CONCURRENT_QUERIES = 8;
  public static final int MAX_MAX_CONCURRENT_QUERIES = 1024;
  public static final int DEFAULT_MAX_CONCURRENT_QUERIES_PER_TENANT = 4;
  public static final int DEFAULT_MAX_CONCURRENT_PART_DOWNLOADS = 16;
  public static final int DEFAULT_MAX_CONCURRENT_PART_DOWNLOADS_PER_TENANT = 8;
  public static final Duration DEFAULT_QUEUE_WAIT = Duration.ofSeconds(30);
  public static final Duration MAX_QUEUE_WAIT = Duration.ofMinutes(10);
  public static final int DEFAULT_MAX_SQL_BYTES = 256 * 1024;
  public static final int MIN_MAX_SQL_BYTES = 1024;
  public static final int MAX_MAX_SQL_BYTES = 1024 * 1024;
  public static final int DEFAULT_MAX_INBOUND_MESSAGE_BYTES = 16 * 1024 * 1024;
  public static final int MIN_MAX_INBOUND_MESSAGE_BYTES = 1024 * 1024;
  public static final int MAX_MAX_INBOUND_MESSAGE_BYTES = 256 * 1024 * 1024;
  public static final Duration DEFAULT_IDLE_STREAM_TIMEOUT = Duration.ofSeconds(60);
  public static final BudgetConfig DEFAULT_BUDGETS = BudgetConfig.unlimited();
  public static final Duration MIN_IDLE_STREAM_TIMEOUT = Duration.ofSeconds(1);
  public static final Duration MAX_IDLE_STREAM_TIMEOUT = Duration.ofHours(1);

  public FrontDoorConfig {
    requireNonNull(host, "host is null");
    requireNonNull(tlsCertificate, "tlsCertificate is null");
    requireNonNull(tlsPrivateKey, "tlsPrivateKey is null");
    requireNonNull(tickets, "tickets is null");
    requireNonNull(preparedTtl, "preparedTtl is null");
    requireNonNull(queueWait, "queueWait is null");
    if (host.isBlank()) {
      throw new IllegalArgumentException("host is blank");
    }
    Bounds.check("port", port, 0, 65535);
    if (tlsCertificate.isPresent() != tlsPrivateKey.isPresent()) {
      throw new IllegalArgumentException("TLS needs both a certificate and a private key");
    }
    Bounds.check("preparedTtl", preparedTtl, MIN_PREPARED_TTL, MAX_PREPARED_TTL);
    Bounds.check("maxConcurrentQueries", maxConcurrentQueries, 1, MAX_MAX_CONCURRENT_QUERIES);
    Bounds.check(
        "maxConcurrentQueriesPerTenant", maxConcurrentQueriesPerTenant, 1, maxConcurrentQueries);
    Bounds.check(
        "maxConcurrentPartDownloads", maxConcurrentPartDownloads, 1, MAX_MAX_CONCURRENT_QUERIES);
    Bounds.check(
        "maxConcurrentPartDownloadsPerTenant",
        maxConcurrentPartDownloadsPerTenant,
        1,
        maxConcurrentPartDownloads);
    Bounds.check("queueWait", queueWait, Duration.ZERO, MAX_QUEUE_WAIT);
    Bounds.check("maxSqlBytes", maxSqlBytes, MIN_MAX_SQL_BYTES, MAX_MAX_SQL_BYTES);
    Bounds.check(
        "maxInboundMessageBytes",
        maxInboundMessageBytes,
        MIN_MAX_INBOUND_MESSAGE_BYTES,
        MAX_MAX_INBOUND_MESSAGE_BYTES);
    requireNonNull(idleStreamTimeout, "idleStreamTimeout is null");
    requireNonNull(budgets, "budgets is null");
    Bounds.check(
        "idleStreamTimeout", idleStreamTimeout, MIN_IDLE_STREAM_TIMEOUT, MAX_IDLE_STREAM_TIMEOUT);
  }

  /** Loopback on port 31337, plaintext, default limits and tickets. */
  public static FrontDoorConfig defaults() {
    return builder().build();
  }

  /** A builder starting from every default; {@code with…} methods change one copy. */
  public static FrontDoorConfigBuilder builder() {
    return FrontDoorConfigBuilder.builder();
  }

  public FrontDoorConfig withListener(String newHost, int newPort) {
    return with().host(newHost).port(newPort).build();
  }

  public FrontDoorConfig withTls(Optional<Path> certificate, Optional<Path> privateKey) {
    return with().tlsCertificate(certificate).tlsPrivateKey(privateKey).build();
  }

  public FrontDoorConfig withLimits(int maxQueries, int maxQueriesPerTenant, Duration wait) {
    return with()
        .maxConcurrentQueries(maxQueries)
        .maxConcurrentQueriesPerTenant(maxQueriesPerTenant)
        .queueWait(wait)
        .build();
  }

  /** A copy with the part-download gates set (global, then per tenant). */
  public FrontDoorConfig withPartDownloadLimits(int downloads, int downloadsPerTenant) {
    return with()
        .maxConcurrentPartDownloads(downloads)
        .maxConcurrentPartDownloadsPerTenant(downloadsPerTenant)
        .build();
  }

  /** A copy with the per-tenant budgets set. */
  public FrontDoorConfig withBudgets(BudgetConfig newBudgets) {
    return with().budgets(newBudgets).build();
  }

  public boolean tlsEnabled() {
    return tlsCertificate.isPresent();
  }
}
