package dev.lake.client;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.PollInfo;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A durable query: poll it, await it, cancel it, read or download its result. The handle is the
 * server's sealed poll descriptor (bound to the submitting principal: it is useless without the
 * same token) plus the server address; {@link #serialize()} turns it into one line of text that
 * {@link LakeClient#resume} accepts in any process until the query expires (24 h by default).
 */
public final class QueryHandle {
  private static final String PREFIX = "lkq1.";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final LakeClient client;
  private final byte[] descriptor;
  private final Optional<String> submissionId;

  QueryHandle(LakeClient client, byte[] descriptor, Optional<String> submissionId) {
    this.client = requireNonNull(client, "client is null");
    this.descriptor = requireNonNull(descriptor, "descriptor is null").clone();
    this.submissionId = requireNonNull(submissionId, "submissionId is null");
  }

  /** The descriptor to poll next: the next one while running, the FlightInfo's once done. */
  static byte[] descriptorOf(PollInfo poll) {
    FlightDescriptor d =
        poll.getFlightDescriptor().orElseGet(() -> poll.getFlightInfo().getDescriptor());
    if (d == null || !d.isCommand()) {
      throw new IllegalStateException("the server answered PollFlightInfo without a descriptor");
    }
    return d.getCommand();
  }

  /** The submission id the query was sent with, if the client chose one. */
  public Optional<String> submissionId() {
    return submissionId;
  }

  /**
   * One PollFlightInfo: the server answers at once when the query is done and otherwise waits up to
   * about a second for a change. A failed query throws its error; a cancelled one throws {@code
   * CANCELLED}.
   */
  public QueryStatus poll() {
    PollInfo poll =
        LakeClient.call(
            () -> client.flight().pollInfo(FlightDescriptor.command(descriptor), client.auth()));
    return status(poll);
  }

  /** Polls until the query is done, reporting progress; returns the final status. */
  public QueryStatus await(ProgressListener listener) {
    requireNonNull(listener, "listener is null");
    while (true) {
      QueryStatus status = poll();
      listener.progress(status.progress());
      if (status.done()) {
        return status;
      }
    }
  }

  /** Asks the server to cancel the query (CANCELLED, CANCELLING, or NOT_CANCELLABLE when done). */
  public CancelStatus cancel() {
    FlightInfo info =
        new FlightInfo(
            new Schema(List.of()), FlightDescriptor.command(descriptor), List.of(), -1, -1);
    return LakeClient.call(
            () ->
                client.flight().cancelFlightInfo(new CancelFlightInfoRequest(info), client.auth()))
        .getStatus();
  }

  /**
   * Waits for the result and streams it, part after part, straight from the server (nothing is
   * written to disk). The caller closes the reader.
   */
  public ResultReader reader(ProgressListener listener) {
    QueryStatus status = await(listener);
    return client.reader(
        new FlightInfo(
            status.schema(),
            FlightDescriptor.command(descriptor),
            status.endpoints(),
            status.bytes(),
            status.rows()));
  }

  /**
   * Waits for the result, then downloads every part into {@code directory} as Arrow IPC stream
   * files {@code part-00000.arrow, …}, {@code parallelism} at a time. Resumable: parts already
   * downloaded by an earlier (even killed) call are kept; a part appears under its name only once
   * complete. Returns the part files in result order; read them with {@link LakeClient#readParts}.
   */
  public Download download(Path directory, int parallelism, ProgressListener listener) {
    QueryStatus status = await(ProgressListener.NONE);
    return new PartDownloader(client, directory, identity(), parallelism)
        .download(status, listener);
  }

  /** The downloaded result of a query. */
  public record Download(List<Path> parts, Schema schema, long rows, int resumed) {
    public Download {
      parts = List.copyOf(requireNonNull(parts, "parts is null"));
      requireNonNull(schema, "schema is null");
    }
  }

  /** This query's handle as one line of text for {@link LakeClient#resume}. */
  public String serialize() {
    ObjectNode node = JSON.createObjectNode();
    node.put("url", client.config().url().toString());
    node.put("descriptor", Base64.getEncoder().encodeToString(descriptor));
    submissionId.ifPresent(id -> node.put("submissionId", id));
    return PREFIX
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
  }

  /** The server address recorded in a serialized handle. */
  public static URI serverOf(String serialized) {
    return LakeClientConfig.parseUrl(decode(serialized).path("url").asText());
  }

  static QueryHandle parse(LakeClient client, String serialized) {
    JsonNode node = decode(serialized);
    try {
      byte[] descriptor = Base64.getDecoder().decode(node.path("descriptor").asText());
      if (descriptor.length == 0) {
        throw new IllegalArgumentException("empty descriptor");
      }
      Optional<String> id =
          node.hasNonNull("submissionId")
              ? Optional.of(node.get("submissionId").asText())
              : Optional.empty();
      return new QueryHandle(client, descriptor, id);
    } catch (IllegalArgumentException e) {
      throw notAHandle();
    }
  }

  private static JsonNode decode(String serialized) {
    requireNonNull(serialized, "serialized is null");
    String s = serialized.strip();
    if (!s.startsWith(PREFIX)) {
      throw notAHandle();
    }
    try {
      JsonNode node = JSON.readTree(Base64.getUrlDecoder().decode(s.substring(PREFIX.length())));
      if (node == null || !node.isObject() || !node.hasNonNull("descriptor")) {
        throw notAHandle();
      }
      return node;
    } catch (IOException | IllegalArgumentException e) {
      throw notAHandle();
    }
  }

  private static IllegalArgumentException notAHandle() {
    return new IllegalArgumentException(
        "not a lake query handle (expected the " + PREFIX + "… line that submit printed)");
  }

  /** A stable name of this query for download directories (the descriptor's digest). */
  String identity() {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(descriptor));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * The expiration time the server sent. Arrow Java 18's {@code PollInfo} reads a timestamp as
   * {@code ofEpochSecond(seconds, wholeTimestampInNanos)}, doubling the instant; whether this Arrow
   * does so is checked once by a round trip, and only then corrected.
   */
  static Optional<Instant> expiration(PollInfo poll) {
    return poll.getExpirationTime()
        .map(t -> DOUBLED_EXPIRY ? Instant.ofEpochSecond(t.getEpochSecond() / 2, t.getNano()) : t);
  }

  private static final boolean DOUBLED_EXPIRY = expiryRoundTripDoubles();

  private static boolean expiryRoundTripDoubles() {
    Instant sent = Instant.ofEpochSecond(1_000_000);
    FlightInfo info =
        new FlightInfo(
            new Schema(List.of()), FlightDescriptor.command(new byte[] {1}), List.of(), -1, -1);
    try {
      Instant read =
          PollInfo.deserialize(new PollInfo(info, null, null, sent).serialize())
              .getExpirationTime()
              .orElseThrow();
      return !read.equals(sent);
    } catch (IOException | java.net.URISyntaxException e) {
      throw new IllegalStateException("cannot round-trip a PollInfo", e);
    }
  }

  static QueryStatus status(PollInfo poll) {
    FlightInfo info = poll.getFlightInfo();
    boolean done = poll.getFlightDescriptor().isEmpty();
    double progress = Math.max(0, Math.min(1, poll.getProgress().orElse(done ? 1.0 : 0.0)));
    List<FlightEndpoint> endpoints = done ? info.getEndpoints() : List.of();
    return new QueryStatus(
        done ? QueryStatus.State.SUCCEEDED : QueryStatus.State.RUNNING,
        done ? 1.0 : progress,
        done ? info.getRecords() : -1,
        done ? info.getBytes() : -1,
        expiration(poll),
        info.getSchemaOptional().orElseGet(() -> new Schema(List.of())),
        endpoints);
  }
}
