package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.job.ResultConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A stored IPC part that is a file on this machine, read batch by batch: each record batch's body
 * is read with one positional read into Arrow memory of the reader's allocator, and the batch's
 * buffers are slices of it (with the stream's zero-copy write Netty sends them from there). The
 * same per-message rules as the streamed path ({@link IpcMessageCheck}) run on each header (read
 * with a positional read) before Arrow sees it or anything is allocated, and a body must lie inside
 * the file. Parts are immutable once published (written elsewhere and moved into place); an expired
 * part deleted meanwhile stays readable until the reader closes its file.
 *
 * <p>Why a read, not a mapping (mapped until 2026-12-02): a batch mapped for the socket write was
 * faulted in by Netty's thread page by page and unmapped after sending (a TLB shootdown per batch),
 * which cost the gRPC threads about twice what raw Flight's writes from memory cost; one read per
 * body copies from the page cache into pooled memory that is already mapped and comes back for the
 * next batch (docs/bench.md, 2026-12-02 07:05 UTC section). A read body is also a copy: a file
 * changed under a reader cannot change a batch already read.
 *
 * <p>Each body is one allocation of the reader's allocator, released when its last reference is
 * (the batch replaced or moved on, and gRPC done sending it), never before.
 */
final class FilePart extends ArrowReader {
  private static final int CONTINUATION = 0xFFFFFFFF;

  private final FileChannel channel;
  private final long size;
  private final ResultConfig config;
  private final IpcMessageCheck messages;
  private long offset;
  private boolean done;
  private ArrowBuf body;

  private FilePart(FileChannel channel, long size, ResultConfig config, BufferAllocator allocator) {
    super(allocator);
    this.channel = channel;
    this.size = size;
    this.config = config;
    this.messages = new IpcMessageCheck(config);
  }

  /** Opens {@code path}, which must be exactly {@code expectedBytes} long, as a result part. */
  static ArrowReader open(
      Path path, long expectedBytes, ResultConfig config, BufferAllocator allocator)
      throws IOException {
    requireNonNull(config, "config is null");
    FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
    try {
      if (channel.size() != expectedBytes) {
        throw new IOException("size " + channel.size() + ", expected " + expectedBytes);
      }
      return new FilePart(channel, expectedBytes, config, allocator);
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  protected Schema readSchema() throws IOException {
    Message message = next();
    if (message == null || message.headerType() != MessageHeader.Schema) {
      throw IpcFramingCheck.reject("no schema message");
    }
    return MessageSerializer.deserializeSchema(message);
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    Message message = next();
    if (message == null) {
      return false;
    }
    // the batch takes its own slices of the body; the body's reference is ours to hand over
    ArrowBuf read = body == null ? allocator.getEmpty() : body;
    body = null;
    ArrowRecordBatch batch;
    try {
      batch = MessageSerializer.deserializeRecordBatch(message, read);
    } catch (IOException | RuntimeException e) {
      read.close(); // released by the deserializer only when it succeeds
      throw e;
    }
    loadRecordBatch(batch); // loads the slices into the root and closes the batch
    return true;
  }

  /**
   * The next checked message, its body (when it has one) read into {@link #body}; null at the end
   * of the stream.
   */
  private Message next() throws IOException {
    long left = size - offset;
    if (done || left == 0) {
      done = true;
      return null;
    }
    if (left < 8) {
      if (left == 4 && read(offset, 4).getInt(0) == CONTINUATION) {
        done = true;
        return null;
      }
      throw IpcFramingCheck.reject("truncated message prefix");
    }
    ByteBuffer prefix = read(offset, 8);
    if (prefix.getInt(0) != CONTINUATION) {
      throw IpcFramingCheck.reject("missing continuation marker (legacy or foreign framing)");
    }
    int metadataLength = prefix.getInt(4);
    if (metadataLength == 0) {
      done = true; // end-of-stream marker
      return null;
    }
    if (metadataLength < 0 || metadataLength > config.maxMetadataBytes()) {
      throw IpcFramingCheck.reject(
          "message header of " + metadataLength + " bytes exceeds the limit");
    }
    long headerStart = offset + 8;
    if (metadataLength > size - headerStart) {
      throw IpcFramingCheck.reject("truncated message header");
    }
    byte[] metadata = read(headerStart, metadataLength).array();
    long bodyLength = messages.check(metadata);
    long bodyStart = headerStart + metadataLength;
    if (bodyLength > size - bodyStart) {
      throw IpcFramingCheck.reject("truncated message body");
    }
    Message message =
        Message.getRootAsMessage(ByteBuffer.wrap(metadata).order(ByteOrder.LITTLE_ENDIAN));
    if (bodyLength > 0) {
      body = readBody(bodyStart, bodyLength);
    }
    offset = bodyStart + bodyLength;
    return message;
  }

  private ByteBuffer read(long position, int length) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        throw IpcFramingCheck.reject("truncated message");
      }
    }
    return buffer;
  }

  /** The body at {@code position}, read into memory of the reader's allocator. */
  private ArrowBuf readBody(long position, long length) throws IOException {
    ArrowBuf buffer = allocator.buffer(length);
    try {
      ByteBuffer target = buffer.nioBuffer(0, Math.toIntExact(length));
      while (target.hasRemaining()) {
        if (channel.read(target, position + target.position()) < 0) {
          throw IpcFramingCheck.reject("truncated message body");
        }
      }
      return buffer;
    } catch (IOException | RuntimeException e) {
      buffer.close();
      throw e;
    }
  }

  @Override
  public long bytesRead() {
    return offset;
  }

  @Override
  protected void closeReadSource() throws IOException {
    if (body != null) {
      body.close();
      body = null;
    }
    channel.close();
  }
}
