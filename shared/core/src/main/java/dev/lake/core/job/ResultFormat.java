package dev.lake.core.job;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a durable result is stored at rest. Downloads always stream Arrow: a Parquet part is decoded
 * back to Arrow batches under the same bounds as an IPC part.
 */
public enum ResultFormat {
  /** Arrow IPC stream parts, uncompressed ({@code part-00000.arrow}); the default. */
  ARROW("arrow", ResultManifest.FORMAT_ARROW_STREAM, "arrow"),
  /** Parquet parts, zstd-compressed ({@code part-00000.parquet}). */
  PARQUET("parquet", ResultManifest.FORMAT_PARQUET, "parquet");

  /** The submission header choosing the format (PollFlightInfo, or GetFlightInfo when durable). */
  public static final String HEADER = "x-lake-result-format";

  private final String option;
  private final String manifestName;
  private final String extension;

  ResultFormat(String option, String manifestName, String extension) {
    this.option = option;
    this.manifestName = manifestName;
    this.extension = extension;
  }

  /** The value clients send in {@value #HEADER}. */
  public String option() {
    return option;
  }

  /** The {@code format} recorded in the manifest. */
  public String manifestName() {
    return manifestName;
  }

  /** The file extension of its parts. */
  public String extension() {
    return extension;
  }

  /** The format a client asked for; an absent header is {@link #ARROW}. */
  public static ResultFormat parse(Optional<String> headerValue) {
    if (headerValue.isEmpty()) {
      return ARROW;
    }
    String value = headerValue.get().trim().toLowerCase(Locale.ROOT);
    for (ResultFormat f : values()) {
      if (f.option.equals(value)) {
        return f;
      }
    }
    throw new LakeException(
        ErrorCode.INVALID_ARGUMENT,
        "Header "
            + HEADER
            + " must be one of "
            + Arrays.stream(values()).map(f -> f.option).collect(Collectors.joining(", ")));
  }

  /** The format a manifest records; an unknown name means a manifest this build cannot read. */
  static ResultFormat ofManifest(String manifestName) {
    for (ResultFormat f : values()) {
      if (f.manifestName.equals(manifestName)) {
        return f;
      }
    }
    throw new LakeException(
        ErrorCode.INTERNAL, "Result manifest names an unknown format: " + manifestName);
  }
}
