package dev.lake.client;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.flight.auth2.BearerCredentialWriter;
import org.apache.arrow.flight.grpc.CredentialCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A client of one lake over Arrow Flight SQL. {@link #query} streams an interactive result; {@link
 * #submit} starts a durable query (PollFlightInfo) whose {@link QueryHandle} can be polled,
 * awaited, cancelled, downloaded part by part, and {@linkplain QueryHandle#serialize() serialized}
 * so that another process {@linkplain #resume resumes} it. Every failure of a call is a {@link
 * LakeClientException} carrying the Flight status and lake's error code. Thread-safe; close it
 * once.
 */
public final class LakeClient implements AutoCloseable {
  /** Header that makes a resent submission land on the same durable job. */
  public static final String SUBMISSION_ID_HEADER = "x-lake-submission-id";

  private final LakeClientConfig config;
  private final BufferAllocator allocator;
  private final FlightClient flight;
  private final FlightSqlClient sql;

  private LakeClient(LakeClientConfig config, BufferAllocator allocator, FlightClient flight) {
    this.config = config;
    this.allocator = allocator;
    this.flight = flight;
    this.sql = new FlightSqlClient(flight);
  }

  /** Connects lazily: the first call opens the channel. */
  public static LakeClient connect(LakeClientConfig config) {
    requireNonNull(config, "config is null");
    BufferAllocator allocator = new RootAllocator();
    try {
      String host = config.url().getHost();
      int port = config.url().getPort();
      FlightClient.Builder builder =
          FlightClient.builder()
              .allocator(allocator)
              .location(
                  config.tls()
                      ? Location.forGrpcTls(host, port)
                      : Location.forGrpcInsecure(host, port));
      if (config.tls()) {
        builder.useTls();
        if (config.caFile().isPresent()) {
          try (InputStream in = Files.newInputStream(config.caFile().get())) {
            builder.trustedCertificates(in);
            return new LakeClient(config, allocator, builder.build());
          }
        }
      }
      return new LakeClient(config, allocator, builder.build());
    } catch (IOException e) {
      allocator.close();
      throw new UncheckedIOException("cannot read the CA file " + config.caFile().get(), e);
    } catch (RuntimeException e) {
      allocator.close();
      throw e;
    }
  }

  public LakeClientConfig config() {
    return config;
  }

  /** The allocator of every reader this client returns (closed with the client). */
  public BufferAllocator allocator() {
    return allocator;
  }

  /**
   * Runs {@code sql} interactively and streams the result: the returned reader pulls batches from
   * the server as it is read (one batch resident). With parameters the statement is prepared and
   * the values are bound to its {@code ?} placeholders. The statement runs within the config's
   * {@linkplain LakeClientConfig#timeout() timeout}, else the server's default deadline; past it
   * the read fails TIMED_OUT. Another thread may {@linkplain ResultReader#cancel() cancel} it;
   * closing it early stops the statement too. The caller closes the reader.
   */
  public ResultReader query(String sql, Object... parameters) {
    requireNonNull(sql, "sql is null");
    List<Object> values = Arrays.asList(requireNonNull(parameters, "parameters is null"));
    CallOption[] options = interactive();
    FlightInfo info =
        call(
            () ->
                values.isEmpty() ? this.sql.execute(sql, options) : prepared(sql, values, options));
    return reader(info, options);
  }

  private FlightInfo prepared(String text, List<Object> values, CallOption[] options) {
    try (FlightSqlClient.PreparedStatement statement = sql.prepare(text, options);
        VectorSchemaRoot parameters = Parameters.root(values, allocator)) {
      statement.setParameters(parameters);
      return statement.execute(options);
    }
  }

  /**
   * The options of an interactive call: the token and, when the config has one, the deadline
   * ({@link LakeClientConfig#TIMEOUT_HEADER}; the server checks it when planning and enforces it
   * while streaming).
   */
  private CallOption[] interactive() {
    if (config.timeout().isEmpty()) {
      return new CallOption[] {auth()};
    }
    FlightCallHeaders headers = new FlightCallHeaders();
    headers.insert(
        LakeClientConfig.TIMEOUT_HEADER, Long.toString(config.timeout().get().toMillis()));
    return new CallOption[] {auth(), new HeaderCallOption(headers)};
  }

  /** A reader over every endpoint of {@code info}, in order. */
  ResultReader reader(FlightInfo info) {
    return reader(info, new CallOption[] {auth()});
  }

  private ResultReader reader(FlightInfo info, CallOption[] options) {
    List<ConcatenatingReader.Opener> sources = new ArrayList<>();
    for (FlightEndpoint endpoint : info.getEndpoints()) {
      sources.add(
          () -> ConcatenatingReader.flight(flight.getStream(endpoint.getTicket(), options)));
    }
    return new ConcatenatingReader(allocator, info.getSchemaOptional().orElseThrow(), sources);
  }

  /**
   * Submits {@code sql} as a durable query. Without a submission id the server derives one from the
   * statement and its snapshots, so sending the same statement again finds the same job.
   */
  public QueryHandle submit(String sql) {
    return submit(sql, Optional.empty());
  }

  /**
   * Submits {@code sql} as a durable query under {@code submissionId} (1-128 of {@code
   * [A-Za-z0-9._:-]}): every submission with the same id lands on the same job, so a client that
   * lost the answer simply submits again.
   */
  public QueryHandle submit(String sql, String submissionId) {
    return submit(sql, Optional.of(requireNonNull(submissionId, "submissionId is null")));
  }

  private QueryHandle submit(String sql, Optional<String> submissionId) {
    requireNonNull(sql, "sql is null");
    FlightDescriptor command =
        FlightDescriptor.command(
            Any.pack(CommandStatementQuery.newBuilder().setQuery(sql).build()).toByteArray());
    List<CallOption> options = new ArrayList<>(List.of(auth()));
    submissionId.ifPresent(
        id -> {
          FlightCallHeaders headers = new FlightCallHeaders();
          headers.insert(SUBMISSION_ID_HEADER, id);
          options.add(new HeaderCallOption(headers));
        });
    PollInfo poll = call(() -> flight.pollInfo(command, options.toArray(CallOption[]::new)));
    return new QueryHandle(this, QueryHandle.descriptorOf(poll), submissionId);
  }

  /** A durable query another process submitted, from its {@link QueryHandle#serialize()} form. */
  public QueryHandle resume(String serialized) {
    return QueryHandle.parse(this, serialized);
  }

  /**
   * Reads downloaded part files ({@link QueryHandle#download}) as one result, in order, one batch
   * resident. The caller closes the reader.
   */
  public ResultReader readParts(List<Path> parts, Schema schema) {
    List<ConcatenatingReader.Opener> sources = new ArrayList<>();
    for (Path part : parts) {
      sources.add(
          () ->
              ConcatenatingReader.ipc(
                  new ArrowStreamReader(Files.newInputStream(part), allocator)));
    }
    return new ConcatenatingReader(allocator, schema, sources);
  }

  // ---- calls shared with QueryHandle ----

  FlightClient flight() {
    return flight;
  }

  /** The bearer token as a call option (none when the config has no token). */
  CallOption auth() {
    return config.token().isPresent()
        ? new CredentialCallOption(new BearerCredentialWriter(config.token().get()))
        : new HeaderCallOption(new FlightCallHeaders());
  }

  /** Runs one Flight call, translating its failure. */
  static <T> T call(Supplier<T> call) {
    try {
      return call.get();
    } catch (FlightRuntimeException e) {
      throw LakeClientException.from(e);
    }
  }

  @Override
  public void close() {
    try {
      sql.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot close the Flight client", e);
    } finally {
      allocator.close();
    }
  }
}
