package dev.lake.bench;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The transport floor: a minimal Arrow Flight server answering GetFlightInfo(command = dataset
 * name) and DoGet(ticket = dataset name) with batches held in memory. No SQL, no auth, no tickets:
 * whatever lake spends above this is lake's own cost.
 */
final class RawFlightServer implements AutoCloseable {
  /** Batches of one dataset, owned by the server until {@link #remove}. */
  record Dataset(Schema schema, List<ArrowRecordBatch> batches) {
    Dataset {
      requireNonNull(schema, "schema is null");
      batches = List.copyOf(requireNonNull(batches, "batches is null"));
    }

    long rows() {
      return batches.stream().mapToLong(ArrowRecordBatch::getLength).sum();
    }
  }

  private final BufferAllocator allocator;
  private final Map<String, Dataset> datasets = new ConcurrentHashMap<>();
  private final Map<String, List<String>> parts = new ConcurrentHashMap<>();
  private final FlightServer server;

  RawFlightServer(BufferAllocator allocator) throws java.io.IOException {
    this.allocator = allocator;
    this.server =
        FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), new Producer())
            .build()
            .start();
  }

  String uri() {
    return "grpc://127.0.0.1:" + server.getPort();
  }

  void put(String name, Dataset dataset) {
    Dataset old = datasets.put(name, dataset);
    if (old != null) {
      old.batches().forEach(ArrowRecordBatch::close);
    }
  }

  /**
   * Serves {@code dataset} as parts of at most {@code partRows} rows (whole batches): GetFlightInfo
   * of {@code name} answers one endpoint per part, like a durable result with several parts.
   */
  void putParts(String name, Dataset dataset, long partRows) {
    List<String> names = new ArrayList<>();
    List<ArrowRecordBatch> current = new ArrayList<>();
    long rows = 0;
    for (ArrowRecordBatch batch : dataset.batches()) {
      if (!current.isEmpty() && rows + batch.getLength() > partRows) {
        names.add(name + "/" + names.size());
        put(names.get(names.size() - 1), new Dataset(dataset.schema(), current));
        current = new ArrayList<>();
        rows = 0;
      }
      current.add(batch);
      rows += batch.getLength();
    }
    if (!current.isEmpty()) {
      names.add(name + "/" + names.size());
      put(names.get(names.size() - 1), new Dataset(dataset.schema(), current));
    }
    parts.put(name, List.copyOf(names));
  }

  void remove(String name) {
    List<String> partNames = parts.remove(name);
    if (partNames != null) {
      partNames.forEach(this::remove);
    }
    Dataset old = datasets.remove(name);
    if (old != null) {
      old.batches().forEach(ArrowRecordBatch::close);
    }
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdown();
    server.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
    server.close();
    datasets.keySet().forEach(this::remove);
  }

  private Dataset find(byte[] name) {
    Dataset d = datasets.get(new String(name, StandardCharsets.UTF_8));
    if (d == null) {
      throw CallStatus.NOT_FOUND.withDescription("no such dataset").toRuntimeException();
    }
    return d;
  }

  private final class Producer extends NoOpFlightProducer {
    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
      List<String> partNames =
          parts.get(new String(descriptor.getCommand(), StandardCharsets.UTF_8));
      if (partNames != null) {
        List<FlightEndpoint> endpoints = new ArrayList<>();
        long rows = 0;
        Schema schema = null;
        for (String part : partNames) {
          Dataset d = find(part.getBytes(StandardCharsets.UTF_8));
          endpoints.add(new FlightEndpoint(new Ticket(part.getBytes(StandardCharsets.UTF_8))));
          rows += d.rows();
          schema = d.schema();
        }
        return new FlightInfo(schema, descriptor, endpoints, -1, rows);
      }
      Dataset d = find(descriptor.getCommand());
      return new FlightInfo(
          d.schema(),
          descriptor,
          List.of(new FlightEndpoint(new Ticket(descriptor.getCommand()))),
          -1,
          d.rows());
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
      stream(find(ticket.getBytes()), allocator, listener);
    }
  }

  /**
   * Streams {@code d}'s batches to {@code listener} as the floor servers do: one root, each batch
   * loaded and sent when the call is ready (back-pressure), then the status.
   */
  static void stream(Dataset d, BufferAllocator allocator, ServerStreamListener listener) {
    Object ready = new Object();
    listener.setOnReadyHandler(
        () -> {
          synchronized (ready) {
            ready.notifyAll();
          }
        });
    try (VectorSchemaRoot root = VectorSchemaRoot.create(d.schema(), allocator)) {
      VectorLoader loader = new VectorLoader(root);
      listener.start(root);
      for (ArrowRecordBatch batch : d.batches()) {
        awaitReady(listener, ready);
        if (listener.isCancelled()) {
          return;
        }
        loader.load(batch);
        listener.putNext();
      }
      listener.completed();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      listener.error(CallStatus.CANCELLED.withDescription("interrupted").toRuntimeException());
    }
  }

  /** Back-pressure: a wait that re-checks {@code isReady} so a missed wake-up costs ≤ 5 ms. */
  private static void awaitReady(ServerStreamListener listener, Object ready)
      throws InterruptedException {
    synchronized (ready) {
      while (!listener.isReady() && !listener.isCancelled()) {
        ready.wait(5);
      }
    }
  }
}
