package dev.lake.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.Optional;

/**
 * Length-prefixed JSON frames on an engine socket: a 4-byte big-endian length, then that many bytes
 * of UTF-8 JSON (Jackson trees only; never Java serialization). Reads and writes go straight to the
 * channel (no {@code Channels.newInputStream}, whose blocking read would hold the lock a concurrent
 * cancel write needs).
 */
final class Frames {
  /** Largest frame either side accepts (a statement of 16 Mi characters fits). */
  static final int MAX_FRAME = 128 << 20;

  private Frames() {}

  static void write(WritableByteChannel channel, JsonNode node) throws IOException {
    byte[] body = Json.mapper().writeValueAsBytes(node);
    ByteBuffer buffer = ByteBuffer.allocate(4 + body.length);
    buffer.putInt(body.length).put(body).flip();
    writeFully(channel, buffer);
  }

  static void writeFully(WritableByteChannel channel, ByteBuffer buffer) throws IOException {
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  /** The next frame; empty when the peer closed the connection before its first byte. */
  static Optional<JsonNode> read(ReadableByteChannel channel) throws IOException {
    ByteBuffer length = ByteBuffer.allocate(4);
    if (!readFully(channel, length, true)) {
      return Optional.empty();
    }
    int size = length.flip().getInt();
    if (size < 0 || size > MAX_FRAME) {
      throw new IOException("engine frame of " + size + " bytes is out of bounds");
    }
    ByteBuffer body = ByteBuffer.allocate(size);
    readFully(channel, body, false);
    return Optional.of(Json.mapper().readTree(body.array()));
  }

  private static boolean readFully(ReadableByteChannel channel, ByteBuffer buffer, boolean eofOk)
      throws IOException {
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        if (eofOk && buffer.position() == 0) {
          return false;
        }
        throw new EOFException("engine connection closed mid-frame");
      }
    }
    return true;
  }
}
