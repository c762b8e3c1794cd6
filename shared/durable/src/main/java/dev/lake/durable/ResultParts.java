package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ObjectStore;
import dev.lake.core.Principal;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobStatus;
import dev.lake.core.job.JobStatus.PartTicket;
import dev.lake.core.job.ParquetCodec;
import dev.lake.core.job.PartRef;
import dev.lake.core.job.ResultConfig;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.job.ResultManifest;
import dev.lake.core.ticket.TicketKind;
import dev.lake.core.ticket.TicketSealer;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * The published result of a succeeded job, as {@link DurableQueries} serves it: its manifest (read
 * once, then cached), the RESULT_PART tickets a poll hands out, and opening exactly the part a
 * ticket names. Who may see the job (ownership, current grants) is decided by the caller before it
 * asks; this class trusts the job it is given.
 */
final class ResultParts {
  private final ObjectStore objects;
  private final TicketSealer tickets;
  private final ResultReader reader;
  private final ResultConfig bounds;
  private final Duration ticketTtl;
  private final Cache<String, ResultManifest> manifests =
      Caffeine.newBuilder().maximumSize(1024).build();

  ResultParts(
      ObjectStore objects,
      TicketSealer tickets,
      ResultConfig bounds,
      Duration ticketTtl,
      Optional<ParquetCodec> parquet) {
    this.objects = requireNonNull(objects, "objects is null");
    this.tickets = requireNonNull(tickets, "tickets is null");
    this.bounds = requireNonNull(bounds, "bounds is null");
    this.ticketTtl = requireNonNull(ticketTtl, "ticketTtl is null");
    this.reader = new ResultReader(objects, bounds, parquet);
  }

  /** What a RESULT_PART ticket names; {@code format} is checked only when the part is opened. */
  record Claims(String jobId, String key, long bytes, int part, String format) {}

  /** The claims of a RESULT_PART ticket sealed for {@code principal}; fails closed. */
  Claims claims(Principal principal, byte[] ticket) {
    JsonNode claims = tickets.unseal(ticket, TicketKind.RESULT_PART, principal);
    String key = claims.path("key").asText("");
    long bytes = claims.path("bytes").asLong(-1);
    String jobId = claims.path("job").asText("");
    if (key.isEmpty() || bytes < 0 || jobId.isEmpty()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Result ticket is malformed");
    }
    // tickets issued before Parquet results existed carry no format: they name IPC parts
    return new Claims(
        jobId, key, bytes, claims.path("part").asInt(-1), claims.path("format").asText("arrow"));
  }

  /** Opens exactly the part {@code claims} name, of {@code job}; the caller closes the reader. */
  ArrowReader open(Claims claims, Job job, BufferAllocator allocator) {
    if (ResultFormat.parse(Optional.of(claims.format())) == ResultFormat.ARROW) {
      return reader.open(claims.key(), claims.bytes(), allocator);
    }
    ResultManifest manifest = manifest(job.manifestKey().orElseThrow(DurableQueries::unknownJob));
    return reader.openParquet(manifest, claims.part(), claims.key(), claims.bytes(), allocator);
  }

  /**
   * The status of a SUCCEEDED job: the manifest's schema and expiry, and one fresh part ticket per
   * part, valid for the part-ticket lifetime capped at the result's expiry.
   */
  JobStatus status(Principal principal, Job job, byte[] descriptor, Instant now) {
    ResultManifest manifest = manifest(job.manifestKey().orElseThrow());
    if (!manifest.expiresAt().isAfter(now)) {
      throw new LakeException(ErrorCode.NOT_FOUND, "The result expired; submit the query again");
    }
    Instant ticketExpiry = min(now.plus(ticketTtl), manifest.expiresAt());
    List<PartTicket> parts = new ArrayList<>();
    for (PartRef part : manifest.parts()) {
      ObjectNode claims =
          JsonNodeFactory.instance
              .objectNode()
              .put("job", job.id())
              .put("query", manifest.queryId())
              .put("part", part.index())
              .put("key", part.key())
              .put("bytes", part.bytes())
              .put("format", manifest.resultFormat().option());
      byte[] ticket =
          tickets.seal(
              TicketKind.RESULT_PART, principal, Duration.between(now, ticketExpiry), claims);
      parts.add(new PartTicket(part.index(), ticket, part.rows(), part.bytes(), ticketExpiry));
    }
    return new JobStatus(
        job.id(),
        job.state(),
        descriptor,
        min(job.expiresAt(), manifest.expiresAt()),
        manifest.schema(),
        1,
        parts,
        Optional.empty());
  }

  private ResultManifest manifest(String key) {
    ResultManifest cached = manifests.getIfPresent(key);
    if (cached != null) {
      return cached;
    }
    Optional<InputStream> in = objects.find(key);
    if (in.isEmpty()) {
      throw new LakeException(ErrorCode.NOT_FOUND, "The result expired; submit the query again");
    }
    try (InputStream stream = in.get()) {
      ResultManifest manifest =
          ResultManifest.fromJson(stream.readNBytes(bounds.maxMetadataBytes() * 4));
      manifests.put(key, manifest);
      return manifest;
    } catch (IOException e) {
      throw new LakeException(ErrorCode.EXTERNAL_UNAVAILABLE, "Cannot read the result manifest");
    }
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }
}
