package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The JDBC floor: a minimal Arrow Flight SQL server that answers exactly the four RPCs the Flight
 * SQL JDBC driver sends for {@code Statement.executeQuery} — CreatePreparedStatement,
 * GetFlightInfo(prepared statement), DoGet, ClosePreparedStatement — for one SQL text, with one
 * dataset held in memory, streamed as {@link RawFlightServer} streams. Every call must carry {@code
 * authorization: Bearer <token>}, compared with one string (no hashing, no principal lookup, no
 * ticket sealing, no planning, no engine): whatever lake spends above this through the same driver
 * is lake's own cost. Any other SQL text is INVALID_ARGUMENT; other RPCs are UNIMPLEMENTED.
 */
final class FlightSqlFloor implements AutoCloseable {
  /** The RPCs the floor answers, counted per call. */
  enum Rpc {
    CREATE_PREPARED_STATEMENT,
    GET_FLIGHT_INFO,
    DO_GET,
    CLOSE_PREPARED_STATEMENT
  }

  private final BufferAllocator allocator;
  private final String sql;
  private final RawFlightServer.Dataset dataset;
  private final Map<Rpc, LongAdder> calls = new EnumMap<>(Rpc.class);
  private final ByteString handle;
  private final byte[] prepared;
  private final byte[] ticket;
  private final FlightServer server;

  private FlightSqlFloor(
      BufferAllocator allocator, String sql, RawFlightServer.Dataset dataset, String token)
      throws java.io.IOException {
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.sql = requireNonNull(sql, "sql is null");
    this.dataset = requireNonNull(dataset, "dataset is null");
    for (Rpc rpc : Rpc.values()) {
      calls.put(rpc, new LongAdder());
    }
    this.handle = ByteString.copyFrom(sql, StandardCharsets.UTF_8);
    // replies that never change are built once, as lake keeps its serialized schemas
    this.prepared =
        Any.pack(
                ActionCreatePreparedStatementResult.newBuilder()
                    .setPreparedStatementHandle(handle)
                    .setDatasetSchema(ByteString.copyFrom(dataset.schema().serializeAsMessage()))
                    .setParameterSchema(
                        ByteString.copyFrom(new Schema(List.of()).serializeAsMessage()))
                    .build())
            .toByteArray();
    this.ticket =
        Any.pack(TicketStatementQuery.newBuilder().setStatementHandle(handle).build())
            .toByteArray();
    this.server =
        FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), new Producer())
            .headerAuthenticator(bearer(requireNonNull(token, "token is null")))
            .build()
            .start();
  }

  /**
   * Starts the floor on a free loopback port serving {@code dataset} (owned by the floor from now
   * on) for {@code sql} to callers presenting {@code token}.
   */
  static FlightSqlFloor start(
      BufferAllocator allocator, String sql, RawFlightServer.Dataset dataset, String token)
      throws java.io.IOException {
    try {
      return new FlightSqlFloor(allocator, sql, dataset, token);
    } catch (java.io.IOException | RuntimeException e) {
      dataset.batches().forEach(ArrowRecordBatch::close);
      throw e;
    }
  }

  String uri() {
    return "grpc://127.0.0.1:" + server.getPort();
  }

  /** Calls of {@code rpc} answered so far (refused calls are not counted). */
  long calls(Rpc rpc) {
    return calls.get(rpc).sum();
  }

  @Override
  public void close() throws InterruptedException {
    try {
      server.shutdown();
      server.awaitTermination(10, TimeUnit.SECONDS);
      server.close();
    } finally {
      dataset.batches().forEach(ArrowRecordBatch::close);
    }
  }

  /** Accepts a call whose {@code authorization} header is exactly {@code Bearer <token>}. */
  private static CallHeaderAuthenticator bearer(String token) {
    byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    return headers -> {
      String presented = headers.get("authorization");
      if (presented == null
          || !MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8))) {
        throw CallStatus.UNAUTHENTICATED
            .withDescription("bearer token required")
            .toRuntimeException();
      }
      return () -> "bench";
    };
  }

  private void requireHandle(ByteString presented) {
    if (!handle.equals(presented)) {
      throw CallStatus.INVALID_ARGUMENT
          .withDescription("the floor serves one statement")
          .toRuntimeException();
    }
  }

  private final class Producer extends NoOpFlightSqlProducer {
    @Override
    public void createPreparedStatement(
        ActionCreatePreparedStatementRequest request,
        CallContext context,
        StreamListener<Result> listener) {
      if (!sql.equals(request.getQuery())) {
        listener.onError(
            CallStatus.INVALID_ARGUMENT
                .withDescription("the floor serves only: " + sql)
                .toRuntimeException());
        return;
      }
      calls.get(Rpc.CREATE_PREPARED_STATEMENT).increment();
      listener.onNext(new Result(prepared));
      listener.onCompleted();
    }

    @Override
    public FlightInfo getFlightInfoPreparedStatement(
        CommandPreparedStatementQuery command, CallContext context, FlightDescriptor descriptor) {
      requireHandle(command.getPreparedStatementHandle());
      calls.get(Rpc.GET_FLIGHT_INFO).increment();
      return new FlightInfo(
          dataset.schema(),
          descriptor,
          List.of(new FlightEndpoint(new Ticket(ticket))),
          -1,
          dataset.rows());
    }

    @Override
    public void getStreamStatement(
        TicketStatementQuery query, CallContext context, ServerStreamListener listener) {
      requireHandle(query.getStatementHandle());
      calls.get(Rpc.DO_GET).increment();
      RawFlightServer.stream(dataset, allocator, listener);
    }

    @Override
    public void closePreparedStatement(
        ActionClosePreparedStatementRequest request,
        CallContext context,
        StreamListener<Result> listener) {
      calls.get(Rpc.CLOSE_PREPARED_STATEMENT).increment();
      listener.onCompleted();
    }
  }
}
