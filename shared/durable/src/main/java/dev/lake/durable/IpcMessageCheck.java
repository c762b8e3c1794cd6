package dev.lake.durable;

import static java.util.Objects.requireNonNull;

import dev.lake.core.LakeException;
import dev.lake.core.job.ResultConfig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;

/**
 * The per-message rules of a stored result part, shared by both ways of reading one ({@link
 * IpcFramingCheck} over a stream, {@link FilePart} over a local file): exactly one leading Schema,
 * then uncompressed RecordBatches within the row and body bounds whose buffers lie inside their
 * body. Stateful (it remembers the schema): one instance per part.
 */
final class IpcMessageCheck {
  private final ResultConfig config;
  private boolean sawSchema;

  IpcMessageCheck(ResultConfig config) {
    this.config = requireNonNull(config, "config is null");
  }

  /** Validates one flatbuffer Message; returns its body length. */
  long check(byte[] metadata) {
    Message message;
    long bodyLength;
    byte type;
    try {
      message = Message.getRootAsMessage(ByteBuffer.wrap(metadata).order(ByteOrder.LITTLE_ENDIAN));
      bodyLength = message.bodyLength();
      type = message.headerType();
    } catch (RuntimeException e) {
      throw IpcFramingCheck.reject("unreadable message header");
    }
    if (bodyLength < 0 || bodyLength > config.maxMessageBytes()) {
      throw IpcFramingCheck.reject("message body of " + bodyLength + " bytes exceeds the limit");
    }
    if (type == MessageHeader.Schema) {
      if (sawSchema || bodyLength != 0) {
        throw IpcFramingCheck.reject("unexpected schema message");
      }
      sawSchema = true;
      return 0;
    }
    if (type != MessageHeader.RecordBatch || !sawSchema) {
      throw IpcFramingCheck.reject("unsupported message type " + type);
    }
    RecordBatch batch;
    try {
      batch = (RecordBatch) message.header(new RecordBatch());
      if (batch == null) {
        throw IpcFramingCheck.reject("record batch without header");
      }
      if (batch.compression() != null) {
        throw IpcFramingCheck.reject("compressed record batch bodies are not accepted");
      }
      if (batch.length() < 0 || batch.length() > config.maxBatchRows()) {
        throw IpcFramingCheck.reject(
            "record batch of " + batch.length() + " rows exceeds the limit");
      }
      Buffer buffer = new Buffer();
      for (int i = 0; i < batch.buffersLength(); i++) {
        batch.buffers(buffer, i);
        if (buffer.offset() < 0
            || buffer.length() < 0
            || buffer.offset() > bodyLength
            || buffer.length() > bodyLength - buffer.offset()) {
          throw IpcFramingCheck.reject("buffer outside its message body");
        }
      }
    } catch (LakeException e) {
      throw e;
    } catch (RuntimeException e) {
      throw IpcFramingCheck.reject("unreadable record batch header");
    }
    return bodyLength;
  }
}
