package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Side;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ClientSidesTest {
  @Test
  void busyRetryingSide_retriesAQueryWhoseDoGetWasToldBusy_beforeAnyData() throws Exception {
    // GIVEN a server whose first two DoGets answer UNAVAILABLE "Server busy, retry later" (lake's
    // admission gate after its queue wait), then streams 25 rows
    try (BufferAllocator allocator = new RootAllocator();
        BusyServer server = new BusyServer(allocator, 2, CallStatus.UNAVAILABLE);
        ClientSides sides = new ClientSides(allocator, "none")) {
      Side side = busyRetrying(server);
      sides.prepare(side);

      // WHEN the side runs once
      ClientSides.Received received = sides.runOnce(side);

      // THEN it got all rows on the third DoGet
      assertThat(received.rows()).isEqualTo(25);
      assertThat(server.doGets.get()).isEqualTo(3);
    }
  }

  @Test
  void busyRetryingSide_doesNotRetryOtherFailures() throws Exception {
    // GIVEN a server whose first DoGet fails with INVALID_ARGUMENT
    try (BufferAllocator allocator = new RootAllocator();
        BusyServer server = new BusyServer(allocator, 1, CallStatus.INVALID_ARGUMENT);
        ClientSides sides = new ClientSides(allocator, "none")) {
      Side side = busyRetrying(server);
      sides.prepare(side);

      // WHEN/THEN the failure surfaces after one DoGet
      assertThatThrownBy(() -> sides.runOnce(side)).isInstanceOf(FlightRuntimeException.class);
      assertThat(server.doGets.get()).isEqualTo(1);
    }
  }

  private static Side busyRetrying(BusyServer server) {
    return new Side("lake", Kind.FLIGHT_SQL, server.uri(), "SELECT 1", Map.of("retryBusy", "true"));
  }

  /** Answers any GetFlightInfo with one endpoint; fails the first {@code failures} DoGets. */
  private static final class BusyServer implements AutoCloseable {
    final AtomicInteger doGets = new AtomicInteger();
    private final FlightServer server;

    BusyServer(BufferAllocator allocator, int failures, CallStatus failure) throws Exception {
      Schema schema =
          new Schema(
              List.of(Field.nullable("k", new IntVector("k", allocator).getField().getType())));
      NoOpFlightProducer producer =
          new NoOpFlightProducer() {
            @Override
            public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
              Ticket ticket = new Ticket("t".getBytes(StandardCharsets.UTF_8));
              return new FlightInfo(
                  schema, descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
            }

            @Override
            public void getStream(CallContext context, Ticket ticket, ServerStreamListener out) {
              if (doGets.incrementAndGet() <= failures) {
                out.error(failure.withDescription("Server busy, retry later").toRuntimeException());
                return;
              }
              try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                IntVector k = (IntVector) root.getVector("k");
                for (int i = 0; i < 25; i++) {
                  k.setSafe(i, i);
                }
                root.setRowCount(25);
                out.start(root);
                out.putNext();
                out.completed();
              }
            }
          };
      server =
          FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer)
              .build()
              .start();
    }

    String uri() {
      return "grpc://127.0.0.1:" + server.getPort();
    }

    @Override
    public void close() throws Exception {
      server.close();
    }
  }
}
