package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.Catalogs;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.SnapshotSet;
import dev.lake.core.SqlAdmission;
import dev.lake.core.Verification;
import dev.lake.core.ticket.StatementTicket;
import dev.lake.core.ticket.TicketKind;
import dev.lake.core.ticket.TicketSealer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer.CallContext;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Statements and prepared statements: admit, authorize and resolve, plan, seal; and redeem sealed
 * statement tickets. Holds no per-statement state: everything a later call needs travels in a
 * sealed ticket, so any replica sharing the key ring serves any call.
 */
@SuppressWarnings("try") // gate permits are held for the scope, not referenced
final class StatementHandler {
  private final SqlAdmission admission;
  private final Catalogs catalogs;
  private final QueryEngine engine;
  private final TicketSealer sealer;
  private final AdmissionGates gates;
  private final ResultStreamer streamer;
  private final BufferAllocator allocator;
  private final FrontDoorConfig config;
  private final TenantBudgets budgets;

  StatementHandler(
      SqlAdmission admission,
      Catalogs catalogs,
      QueryEngine engine,
      TicketSealer sealer,
      AdmissionGates gates,
      ResultStreamer streamer,
      BufferAllocator allocator,
      FrontDoorConfig config,
      TenantBudgets budgets) {
    this.admission = requireNonNull(admission, "admission is null");
    this.catalogs = requireNonNull(catalogs, "catalogs is null");
    this.engine = requireNonNull(engine, "engine is null");
    this.sealer = requireNonNull(sealer, "sealer is null");
    this.gates = requireNonNull(gates, "gates is null");
    this.streamer = requireNonNull(streamer, "streamer is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.config = requireNonNull(config, "config is null");
    this.budgets = requireNonNull(budgets, "budgets is null");
  }

  /** The per-tenant budgets every statement and part download of this front door is held to. */
  TenantBudgets budgets() {
    return budgets;
  }

  /** An admitted statement with every table authorized and pinned to its exact snapshot. */
  private record Resolved(AdmittedQuery query, SnapshotSet snapshots) {}

  /** Admission, then authorization before any planning (denied reads exactly like missing). */
  private Resolved resolve(Principal principal, String sql) {
    if (sql.getBytes(StandardCharsets.UTF_8).length > config.maxSqlBytes()) {
      throw new LakeException(
          ErrorCode.INVALID_SQL,
          "SQL text is longer than " + config.maxSqlBytes() + " bytes; shorten the statement");
    }
    AdmittedQuery query = admission.admit(sql);
    return new Resolved(query, catalogs.resolveAll(principal, query));
  }

  /** A statement ready to run: admitted, authorized, pinned to exact snapshots and planned. */
  record Planned(AdmittedQuery query, SnapshotSet snapshots, Schema schema) {}

  /**
   * The planned schema with Flight SQL column metadata (see {@link ColumnMetadata}), planned where
   * {@code tenant}'s statements run (with engine processes: its own process, so a statement whose
   * planning explodes never touches another tenant's).
   */
  private Schema described(String tenant, AdmittedQuery query, SnapshotSet snapshots) {
    Schema planned = engine.forTenant(tenant).plan(query, snapshots);
    return ColumnMetadata.decorate(planned, query.origins().forColumns(planned.getFields().size()));
  }

  /**
   * The GetFlightInfo path up to sealing, under the admission gates: admission, authorization and
   * snapshot resolution, planning. Shared by interactive tickets and durable submissions.
   */
  Planned plan(Principal principal, String sql, CallNotes notes) {
    budgets.checkBeforeStart(principal.tenant()); // interactive and durable alike
    long start = System.nanoTime();
    try (AdmissionGates.Permit ignored = gates.enter(principal.tenant())) {
      Resolved r = resolve(principal, sql);
      notes.snapshots(r.snapshots());
      Planned planned =
          new Planned(
              r.query(), r.snapshots(), described(principal.tenant(), r.query(), r.snapshots()));
      notes.planned(Duration.ofNanos(System.nanoTime() - start));
      return planned;
    }
  }

  /** GetFlightInfo for a statement: one endpoint whose ticket seals SQL + exact snapshots. */
  FlightInfo flightInfo(
      Principal principal,
      String sql,
      List<Object> parameters,
      FlightDescriptor descriptor,
      CallNotes notes) {
    Planned r = plan(principal, sql, notes);
    Duration ttl = config.tickets().statementTtl();
    Instant expiry = sealer.expiryFor(ttl);
    byte[] sealed =
        sealer.seal(
            TicketKind.STATEMENT,
            principal,
            ttl,
            new StatementTicket(sql, parameters, r.snapshots()).toJson());
    notes.query(queryId(sealed));
    Ticket ticket =
        new Ticket(
            Any.pack(
                    TicketStatementQuery.newBuilder()
                        .setStatementHandle(ByteString.copyFrom(sealed))
                        .build())
                .toByteArray());
    return new FlightInfo(
        r.schema(), descriptor, List.of(new FlightEndpoint(ticket, expiry)), -1, -1);
  }

  /** GetSchema for a statement: the planned schema, nothing sealed. */
  Schema schema(Principal principal, String sql, CallNotes notes) {
    return plan(principal, sql, notes).schema();
  }

  /**
   * DoGet: opens the sealed statement (failing closed), re-checks grants and incarnations, and
   * streams exactly the sealed snapshots, within {@code deadline} (else the engine's default) from
   * a producer thread (returning at once, so gRPC can deliver readiness and cancellation). Never
   * resolves anything to "latest".
   */
  void stream(
      Principal principal,
      byte[] sealed,
      Optional<Duration> deadline,
      ServerStreamListener listener,
      CallNotes notes) {
    JsonNode payload = sealer.unseal(sealed, TicketKind.STATEMENT, principal);
    StatementTicket ticket = StatementTicket.fromJson(payload);
    String digest = digest(sealed);
    notes.query(queryIdOf(digest));
    notes.snapshots(ticket.snapshots());
    // defense in depth: the sealed text passed admission when sealed; admit it again so this
    // replica's rules apply and the sealed tables are exactly the statement's tables
    AdmittedQuery query = admission.admit(ticket.sql());
    if (!query.tables().equals(ticket.snapshots().snapshots().keySet())) {
      throw new LakeException(
          ErrorCode.TICKET_INVALID, "Ticket does not match its statement; request a new ticket");
    }
    budgets.checkBeforeStart(principal.tenant());
    AdmissionGates.Permit permit = gates.enter(principal.tenant());
    QueryExecution execution;
    Verification verified;
    try {
      // grants now; snapshot checks that are round trips (Iceberg's REST loadTable) run while the
      // statement binds and runs up to its first batch, and the streamer sends nothing before
      // every one passed (fail closed)
      verified = catalogs.startVerifyAll(principal, ticket.snapshots());
      execution = execute(principal, query, ticket, deadline, verified);
    } catch (RuntimeException e) {
      permit.close();
      throw e;
    }
    // the streamer owns the execution and the permit from here (see ResultStreamer#start) and
    // awaits the checks after the statement produced its first batch
    streamer.start(
        digest,
        execution,
        ColumnMetadata.stream(
            BudgetedListener.of(listener, budgets, principal.tenant(), true),
            query.origins()::forColumns),
        List.of(permit),
        budgets.chargingScans(principal.tenant(), notes),
        verified);
  }

  /**
   * Opens the sealed statement in the tenant's own memory pool (another tenant's memory use never
   * fails it) while {@code verified} runs; the caller hands both to the streamer, which awaits the
   * checks before it sends anything. If opening fails, a failed check wins over that failure (the
   * statement may have read a snapshot that is gone).
   */
  private QueryExecution execute(
      Principal principal,
      AdmittedQuery query,
      StatementTicket ticket,
      Optional<Duration> deadline,
      Verification verified) {
    QueryEngine tenantEngine = engine.forTenant(principal.tenant());
    QueryExecution execution;
    try {
      execution =
          deadline.isPresent()
              ? tenantEngine.execute(
                  query, ticket.parameters(), ticket.snapshots(), allocator, deadline.get())
              : tenantEngine.execute(query, ticket.parameters(), ticket.snapshots(), allocator);
    } catch (RuntimeException e) {
      verified.await();
      throw e;
    }
    return execution;
  }

  /**
   * The interactive deadline the current call asked for ({@link RequestHeaders#deadline}), checked
   * against the engine's longest; empty for the engine's default.
   */
  Optional<Duration> deadline(CallContext context) {
    return RequestHeaders.deadline(context, engine.maxInteractiveTimeout());
  }

  /** Cancels this replica's running streams of a sealed statement the caller owns. */
  int cancel(Principal principal, byte[] sealed) {
    sealer.unseal(sealed, TicketKind.STATEMENT, principal);
    return streamer.cancel(digest(sealed));
  }

  /** CreatePreparedStatement: the handle is a sealed PREPARED ticket holding only the SQL. */
  ActionCreatePreparedStatementResult prepare(Principal principal, String sql, CallNotes notes) {
    long start = System.nanoTime();
    try (AdmissionGates.Permit ignored = gates.enter(principal.tenant())) {
      Resolved r = resolve(principal, sql);
      notes.snapshots(r.snapshots());
      Schema dataset = described(principal.tenant(), r.query(), r.snapshots());
      Schema parameters =
          engine.forTenant(principal.tenant()).parameterTypes(r.query(), r.snapshots());
      byte[] handle = sealPrepared(principal, new PreparedHandle(sql, List.of()));
      notes.planned(Duration.ofNanos(System.nanoTime() - start));
      return ActionCreatePreparedStatementResult.newBuilder()
          .setPreparedStatementHandle(ByteString.copyFrom(handle))
          .setDatasetSchema(serialized(dataset))
          .setParameterSchema(serialized(parameters))
          .build();
    }
  }

  /** Opens a prepared-statement handle the caller owns. */
  PreparedHandle openPrepared(Principal principal, ByteString handle) {
    return PreparedHandle.fromJson(
        sealer.unseal(handle.toByteArray(), TicketKind.PREPARED, principal));
  }

  /** Binds {@code parameters}: returns a new handle carrying them (stateless binding). */
  byte[] bind(Principal principal, ByteString handle, List<Object> parameters) {
    PreparedHandle prepared = openPrepared(principal, handle);
    return sealPrepared(principal, new PreparedHandle(prepared.sql(), parameters));
  }

  private byte[] sealPrepared(Principal principal, PreparedHandle handle) {
    return sealer.seal(TicketKind.PREPARED, principal, config.preparedTtl(), handle.toJson());
  }

  /**
   * IPC bytes of the schemas CreatePreparedStatement replies carry, by schema identity: the
   * decorated dataset schema ({@link ColumnMetadata}) and a typed parameter schema (the engine's
   * {@link QueryEngine#parameterTypes}) are shared instances of their own bounded caches, so a
   * repeated prepare serializes neither again (schemas are immutable; a collected schema drops its
   * entry).
   */
  private static final Cache<Schema, ByteString> SERIALIZED =
      Caffeine.newBuilder().weakKeys().maximumSize(1_024).build();

  private static ByteString serialized(Schema schema) {
    return SERIALIZED.get(schema, s -> ByteString.copyFrom(serialize(s)));
  }

  /** The IPC-encapsulated form of a schema used in Flight SQL messages. */
  static byte[] serialize(Schema schema) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), schema);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * The query id of the audit trail: the first 16 hex digits of the ticket's digest, so the
   * GetFlightInfo that sealed a ticket and every DoGet redeeming it share one id.
   */
  static String queryId(byte[] sealed) {
    return queryIdOf(digest(sealed));
  }

  /** The query id within a ticket's {@link #digest}. */
  private static String queryIdOf(String digest) {
    return digest.substring(0, QUERY_ID_CHARS);
  }

  private static final int QUERY_ID_CHARS = 16;

  /** A digest naming a ticket in logs and the running-query registry, never the ticket itself. */
  static String digest(byte[] sealed) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(sealed));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
