package dev.lake.core.job;

import dev.lake.core.Bounds;
import io.soabase.recordbuilder.core.RecordBuilder;
import java.time.Duration;

/**
 * Bounds of durable results, shared by the writer (worker) and the reader (DoGet), validated once.
 *
 * @param maxPartBytes a part is closed once it holds this many bytes (default 64 MiB, 1 KiB - 4
 *     GiB); it may exceed it by at most one message
 * @param maxPartRows a part never holds more rows (default 4,000,000, 1 - 2^31-1)
 * @param maxMessageBytes the largest IPC message body written or accepted (default 64 MiB, 1 KiB -
 *     1 GiB); the writer splits larger batches, the reader rejects them before allocating
 * @param maxBatchRows the most rows in one IPC batch, written or accepted (default 1,000,000)
 * @param maxMetadataBytes the largest IPC message header accepted (default 1 MiB, 1 KiB - 16 MiB)
 * @param resultTtl how long a published result stays downloadable (default 24 h, 1 min - 30 d)
 */
@RecordBuilder
public record ResultConfig(
    @RecordBuilder.Initializer("DEFAULT_MAX_PART_BYTES") long maxPartBytes,
    @RecordBuilder.Initializer("DEFAULT_MAX_PART_ROWS") long maxPartRows,
    @RecordBuilder.Initializer("DEFAULT_MAX_MESSAGE_BYTES") long maxMessageBytes,
    @RecordBuilder.Initializer("DEFAULT_MAX_BATCH_ROWS") int maxBatchRows,
    @RecordBuilder.Initializer("DEFAULT_MAX_METADATA_BYTES") int maxMetadataBytes,
    @RecordBuilder.Initializer("DEFAULT_RESULT_TTL") Duration resultTtl)
    implements ResultConfigBuilder.With {
  public static final long DEFAULT_MAX_PART_BYTES = 64L << 20;
  public static final long DEFAULT_MAX_PART_ROWS = 4_000_000;
  public static final long DEFAULT_MAX_MESSAGE_BYTES = 64L << 20;
  public static final int DEFAULT_MAX_BATCH_ROWS = 1_000_000;
  public static final int DEFAULT_MAX_METADATA_BYTES = 1 << 20;
  public static final Duration DEFAULT_RESULT_TTL = Duration.ofHours(24);

  public ResultConfig {
    java.util.Objects.requireNonNull(resultTtl, "resultTtl is null");
    Bounds.check("maxPartBytes", maxPartBytes, 1024, 4L << 30);
    Bounds.check("maxPartRows", maxPartRows, 1, Integer.MAX_VALUE);
    Bounds.check("maxMessageBytes", maxMessageBytes, 1024, 1L << 30);
    Bounds.check("maxBatchRows", maxBatchRows, 1, Integer.MAX_VALUE);
    Bounds.check("maxMetadataBytes", maxMetadataBytes, 1024, 16 << 20);
    Bounds.check("resultTtl", resultTtl, Duration.ofMinutes(1), Duration.ofDays(30));
  }

  public static ResultConfig defaults() {
    return ResultConfigBuilder.builder().build();
  }
}
