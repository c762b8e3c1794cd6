package dev.lake.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.AdmittedQuery;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.QueryEngine;
import dev.lake.core.QueryExecution;
import dev.lake.core.QueryStats;
import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine process's side of the engine socket: serves one {@link QueryEngine} to the supervisor,
 * one connection per request. An execution answers a header frame, then its result as an Arrow IPC
 * stream written while it is computed (socket back-pressure bounds what is in flight), then a
 * trailer frame: the statistics, or the error that ended it. A result is complete only with an ok
 * trailer, so a process killed mid-stream never yields a result that looks complete. A byte from
 * the supervisor, or its connection closing, cancels the execution.
 */
public final class EngineHost {
  private static final Logger LOG = LoggerFactory.getLogger(EngineHost.class);

  /** The byte the supervisor sends to cancel a running request. */
  static final byte CANCEL = 'C';

  private final QueryEngine engine;
  private final BufferAllocator allocator;
  private final ExecutorService connections =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "lake-engine-connection");
            t.setDaemon(true);
            return t;
          });

  private EngineHost(QueryEngine engine, BufferAllocator allocator) {
    this.engine = engine;
    this.allocator = allocator;
  }

  /**
   * Serves {@code engine} on the Unix socket {@code socket} until {@code parent} (the supervisor's
   * end of this process's stdin) closes, i.e. until the supervisor exits or closes this process;
   * then returns. The socket file is created here and removed on return.
   */
  public static void serve(
      QueryEngine engine, BufferAllocator allocator, Path socket, InputStream parent)
      throws IOException {
    EngineHost host = new EngineHost(engine, allocator);
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Thread acceptor = new Thread(() -> host.accept(server), "lake-engine-accept");
      acceptor.setDaemon(true);
      acceptor.start();
      // the parent never writes: end of stream means the supervisor is gone
      while (parent.read() >= 0) {
        // ignore
      }
    } finally {
      host.connections.shutdownNow();
      Files.deleteIfExists(socket);
    }
  }

  /**
   * The first line of {@code parent} (the settings the supervisor writes first, {@link
   * EngineLaunch#settings()}), read byte by byte so nothing after it is consumed.
   */
  public static String settingsLine(InputStream parent) throws IOException {
    java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
    for (int b = parent.read(); b >= 0 && b != '\n'; b = parent.read()) {
      line.write(b);
    }
    return line.toString(java.nio.charset.StandardCharsets.UTF_8);
  }

  private void accept(ServerSocketChannel server) {
    while (server.isOpen()) {
      try {
        SocketChannel channel = server.accept();
        connections.execute(() -> handle(channel));
      } catch (IOException e) {
        if (server.isOpen()) {
          LOG.warn("engine socket accept failed", e);
        }
        return;
      }
    }
  }

  private void handle(SocketChannel channel) {
    try (channel) {
      Optional<JsonNode> frame = Frames.read(channel);
      if (frame.isEmpty()) {
        return;
      }
      Wire.Request request;
      try {
        request = Wire.request(frame.get());
      } catch (RuntimeException e) {
        Frames.write(channel, Wire.error(asLake(e)));
        return;
      }
      switch (request.op()) {
        case STATS -> Frames.write(channel, Wire.cache(engine.cacheStats()));
        case PLAN, PARAMETER_TYPES -> describe(channel, request);
        case SPLITS -> splits(channel, request);
        case EXECUTE -> execute(channel, request);
      }
    } catch (IOException e) {
      LOG.debug("engine connection ended: {}", e.toString());
    } catch (RuntimeException e) {
      LOG.warn("engine connection failed", e);
    }
  }

  /** The result schema (PLAN) or the placeholders' types (PARAMETER_TYPES) of the statement. */
  private void describe(SocketChannel channel, Wire.Request request) throws IOException {
    try {
      QueryEngine tenant = engine.forTenant(request.tenant());
      AdmittedQuery query = request.query().orElseThrow();
      var schema =
          request.op() == Wire.Op.PARAMETER_TYPES
              ? tenant.parameterTypes(query, request.snapshots())
              : tenant.plan(query, request.snapshots());
      Frames.write(channel, Wire.schema(schema));
    } catch (RuntimeException e) {
      Frames.write(channel, Wire.error(asLake(e)));
    }
  }

  private void splits(SocketChannel channel, Wire.Request request) throws IOException {
    try {
      Frames.write(
          channel,
          Wire.splits(
              engine
                  .forTenant(request.tenant())
                  .splits(
                      request.query().orElseThrow(),
                      request.snapshots(),
                      request.targetRows(),
                      request.maxSplits())));
    } catch (RuntimeException e) {
      Frames.write(channel, Wire.error(asLake(e)));
    }
  }

  private void execute(SocketChannel channel, Wire.Request request) throws IOException {
    Cancellation cancel = new Cancellation(channel);
    QueryExecution execution;
    try {
      QueryEngine tenant = engine.forTenant(request.tenant());
      execution =
          request.timeout().isPresent()
              ? tenant.execute(
                  request.query().orElseThrow(),
                  request.parameters(),
                  request.snapshots(),
                  allocator,
                  request.timeout().get())
              : tenant.execute(
                  request.query().orElseThrow(),
                  request.parameters(),
                  request.snapshots(),
                  allocator);
    } catch (RuntimeException e) {
      Frames.write(channel, Wire.error(asLake(e)));
      return;
    }
    try (execution) {
      cancel.attach(execution);
      try {
        execution.reader().getVectorSchemaRoot(); // fails here, not mid-stream, if it can't start
      } catch (IOException | RuntimeException e) {
        Frames.write(
            channel,
            Wire.error(
                e instanceof RuntimeException r
                    ? asLake(r)
                    : new LakeException(
                        ErrorCode.INTERNAL, "The engine failed to start a result")));
        return;
      }
      Frames.write(channel, Wire.ok());
      stream(channel, execution);
    }
  }

  private static void stream(SocketChannel channel, QueryExecution execution) throws IOException {
    ArrowReader reader = execution.reader();
    LakeException failure = null;
    // never closed: closing an IPC writer closes the connection, and the trailer follows
    ArrowStreamWriter writer = new ArrowStreamWriter(reader.getVectorSchemaRoot(), reader, channel);
    writer.start();
    try {
      while (reader.loadNextBatch()) {
        writer.writeBatch();
      }
    } catch (RuntimeException e) {
      failure = asLake(e);
    }
    writer.end();
    if (failure != null) {
      Frames.write(channel, Wire.error(failure));
      return;
    }
    // final once the reader reported the end (statsLater may wait for figures a cancel never
    // delivers, and a slot must not wait for accounting)
    QueryStats stats = execution.stats();
    Frames.write(channel, Wire.trailer(stats));
  }

  static LakeException asLake(RuntimeException e) {
    if (e instanceof LakeException lake) {
      return lake;
    }
    LOG.warn("engine request failed", e);
    return new LakeException(
        ErrorCode.INTERNAL, "The engine failed: " + e.getClass().getSimpleName());
  }

  /** Cancels the request's execution when the supervisor sends {@link #CANCEL} or goes away. */
  private final class Cancellation {
    private final AtomicBoolean requested = new AtomicBoolean();
    private volatile QueryExecution execution;

    Cancellation(SocketChannel channel) {
      connections.execute(
          () -> {
            ByteBuffer one = ByteBuffer.allocate(1);
            try {
              channel.read(one);
            } catch (IOException e) {
              // closed: the request is over or the supervisor left; cancel either way
            }
            requested.set(true);
            QueryExecution current = execution;
            if (current != null) {
              current.cancel();
            }
          });
    }

    void attach(QueryExecution value) {
      execution = value;
      if (requested.get()) {
        value.cancel();
      }
    }
  }
}
