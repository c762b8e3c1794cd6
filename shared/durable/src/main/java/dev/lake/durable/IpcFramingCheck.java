package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.job.ResultConfig;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * An input stream that walks an Arrow IPC stream's framing and hands each message to the decoder
 * only after its header passed the checks, so Arrow never allocates for a hostile part. Per message
 * it reads the continuation marker and length, bounds the flatbuffer header ({@link
 * ResultConfig#maxMetadataBytes}), parses it with {@code org.apache.arrow.flatbuf}, and rejects:
 * anything but one leading Schema followed by RecordBatches (no dictionaries, tensors, legacy
 * framing), compressed bodies ({@code BodyCompression} present), bodies over {@link
 * ResultConfig#maxMessageBytes}, batches over {@link ResultConfig#maxBatchRows} rows, and buffers
 * outside their body. Only one header is buffered at a time; bodies stream through.
 */
final class IpcFramingCheck extends FilterInputStream {
  private static final int CONTINUATION = 0xFFFFFFFF;

  private final ResultConfig config;
  private byte[] pending = new byte[0];
  private int pendingPos;
  private long bodyLeft;
  private final IpcMessageCheck messages;
  private boolean done;

  IpcFramingCheck(InputStream in, ResultConfig config) {
    super(requireNonNull(in, "in is null"));
    this.config = requireNonNull(config, "config is null");
    this.messages = new IpcMessageCheck(config);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (pendingPos == pending.length && bodyLeft == 0) {
      if (done || !nextHeader()) {
        return -1;
      }
    }
    if (pendingPos < pending.length) {
      int n = Math.min(len, pending.length - pendingPos);
      System.arraycopy(pending, pendingPos, b, off, n);
      pendingPos += n;
      return n;
    }
    int n = in.read(b, off, (int) Math.min(len, bodyLeft));
    if (n < 0) {
      throw reject("truncated message body");
    }
    bodyLeft -= n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    throw new IOException("skip is not supported on a checked IPC stream");
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  /** Reads and checks the next message header; false at end of stream. */
  private boolean nextHeader() throws IOException {
    byte[] prefix = in.readNBytes(8);
    if (prefix.length == 0) {
      done = true;
      return false;
    }
    if (prefix.length < 8) {
      if (prefix.length == 4 && ByteBuffer.wrap(prefix).getInt() == CONTINUATION) {
        done = true;
        return false;
      }
      throw reject("truncated message prefix");
    }
    ByteBuffer p = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN);
    if (p.getInt(0) != CONTINUATION) {
      throw reject("missing continuation marker (legacy or foreign framing)");
    }
    int metadataLength = p.getInt(4);
    if (metadataLength == 0) {
      done = true;
      pending = prefix;
      pendingPos = 0;
      return true;
    }
    if (metadataLength < 0 || metadataLength > config.maxMetadataBytes()) {
      throw reject("message header of " + metadataLength + " bytes exceeds the limit");
    }
    byte[] metadata = in.readNBytes(metadataLength);
    if (metadata.length < metadataLength) {
      throw reject("truncated message header");
    }
    bodyLeft = messages.check(metadata);
    pending = new byte[8 + metadataLength];
    System.arraycopy(prefix, 0, pending, 0, 8);
    System.arraycopy(metadata, 0, pending, 8, metadataLength);
    pendingPos = 0;
    return true;
  }

  static LakeException reject(String why) {
    return new LakeException(ErrorCode.INTERNAL, "Result part rejected by framing check: " + why);
  }
}
