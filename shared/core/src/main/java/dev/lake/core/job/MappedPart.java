package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.ForeignAllocation;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A stored IPC part that is a file on this machine, read by mapping each record batch's body: the
 * batch's buffers are slices of that mapping, so serving a part copies nothing in this process
 * (with the stream's zero-copy write the kernel copies the page-cache pages straight into the
 * socket) and no Arrow memory is allocated or zeroed per batch. The same per-message rules as the
 * streamed path ({@link IpcMessageCheck}) run on each header (read with a positional read) before
 * Arrow sees it, and a body must lie inside the file. Parts are immutable once published (written
 * elsewhere and moved into place), so a mapping never changes under a reader; an expired part
 * deleted meanwhile stays readable until unmapped.
 *
 * <p>Each body is one foreign Arrow allocation, unmapped when its last reference is released (the
 * batch replaced or moved on, and gRPC done sending it), never before. One mapping per batch rather
 * than per file: a sent batch releases its own allocation, which the stream's wire root waits for.
 */
final class MappedPart extends ArrowReader {
  private static final int CONTINUATION = 0xFFFFFFFF;

  private final FileChannel channel;
  private final long size;
  private final ResultConfig config;
  private final IpcMessageCheck messages;
  private long offset;
  private boolean done;
  private ArrowBuf body;

  private MappedPart(
      FileChannel channel, long size, ResultConfig config, BufferAllocator allocator) {
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
      return new MappedPart(channel, expectedBytes, config, allocator);
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
    ArrowBuf mapped = body == null ? allocator.getEmpty() : body;
    body = null;
    ArrowRecordBatch batch;
    try {
      batch = MessageSerializer.deserializeRecordBatch(message, mapped);
    } catch (IOException | RuntimeException e) {
      mapped.close(); // released by the deserializer only when it succeeds
      throw e;
    }
    loadRecordBatch(batch); // loads the slices into the root and closes the batch
    return true;
  }

  /**
   * The next checked message, its body (when it has one) mapped into {@link #body}; null at the end
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
      body = map(bodyStart, bodyLength);
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

  private ArrowBuf map(long position, long length) throws IOException {
    MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_ONLY, position, length);
    try {
      return allocator.wrapForeignAllocation(
          new ForeignAllocation(length, MemoryUtil.getByteBufferAddress(mapping)) {
            @Override
            protected void release0() {
              unmap(mapping); // nothing references the mapping any more
            }
          });
    } catch (RuntimeException e) {
      unmap(mapping);
      throw e;
    }
  }

  /** sun.misc.Unsafe (module jdk.unsupported) for an immediate unmap; without it GC unmaps. */
  private static final sun.misc.Unsafe UNSAFE = unsafe();

  private static sun.misc.Unsafe unsafe() {
    try {
      java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  private static void unmap(MappedByteBuffer mapping) {
    if (UNSAFE != null) {
      UNSAFE.invokeCleaner(mapping);
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
