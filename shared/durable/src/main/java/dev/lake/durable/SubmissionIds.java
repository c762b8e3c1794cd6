package dev.lake.durable;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Principal;
import dev.lake.core.SnapshotSet;
import dev.lake.core.job.ResultFormat;
import dev.lake.core.ticket.ParameterCodec;
import dev.lake.core.ticket.SnapshotCodec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Identity-bound submission and job ids. A client may send its own submission id in the {@value
 * #HEADER} header; otherwise it is derived from the principal, statement, parameters and snapshot
 * set. The job id hashes tenant, principal and submission id, so a resent submission lands on the
 * same job and two principals can never collide on, or guess into, each other's jobs.
 *
 * <p>The result format is part of what runs: the same statement submitted for Arrow IPC and for
 * Parquet derives two submission ids (two jobs, two results), and one client-chosen id reused with
 * another format is a different statement ({@code INVALID_ARGUMENT}). Arrow, the default, adds
 * nothing, so ids derived before Parquet results existed are unchanged.
 */
public final class SubmissionIds {
  /** The gRPC metadata key carrying a client-chosen submission id. */
  public static final String HEADER = "x-lake-submission-id";

  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private SubmissionIds() {}

  /** The client's id if present (validated), else the derived one. */
  public static String resolve(
      Optional<String> clientSupplied,
      Principal principal,
      String sql,
      List<Object> parameters,
      SnapshotSet snapshots,
      ResultFormat format) {
    if (clientSupplied.isPresent()) {
      String id = clientSupplied.get();
      if (!VALID.matcher(id).matches()) {
        throw new LakeException(
            ErrorCode.INVALID_ARGUMENT,
            "Header " + HEADER + " must be 1-128 characters of [A-Za-z0-9._:-]");
      }
      return id;
    }
    return "d-"
        + fingerprint(
            principal.tenant() + "\0" + principal.id(), sql, parameters, snapshots, format);
  }

  public static String jobId(String tenant, String principal, String submissionId) {
    return "j-" + sha256(tenant + "\0" + principal + "\0" + submissionId).substring(0, 40);
  }

  /** A digest of what runs; stored on the job to catch a reused id with a different statement. */
  public static String fingerprint(
      String scope,
      String sql,
      List<Object> parameters,
      SnapshotSet snapshots,
      ResultFormat format) {
    String formatScope = format == ResultFormat.ARROW ? "" : "\0result=" + format.option();
    return sha256(
        scope
            + formatScope
            + "\0"
            + sql
            + "\0"
            + ParameterCodec.toJson(parameters)
            + "\0"
            + SnapshotCodec.toJson(snapshots));
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing", e);
    }
  }
}
