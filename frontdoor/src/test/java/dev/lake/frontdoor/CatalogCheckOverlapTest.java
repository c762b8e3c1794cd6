package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.CatalogPlugin;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.ScanRequest;
import dev.lake.core.Snapshot;
import dev.lake.core.TableReader;
import dev.lake.core.TableRef;
import dev.lake.core.TableResolver;
import dev.lake.core.Verification;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DoGet's sealed-snapshot checks that are round trips (Iceberg's REST loadTable) run while the
 * statement executes up to its first batch, and the stream sends nothing before they passed. The
 * {@code lake} catalog's ports are wrapped: its checks pass or fail when the test says, and its
 * streams tell when the engine first pulls a batch from them.
 */
class CatalogCheckOverlapTest {
  private static final String SQL = "SELECT count(n_name) FROM lake.tpch.nation";

  @TempDir Path dir;
  private TestLake lake;
  private HeldChecks checks;
  private final CountDownLatch pulled = new CountDownLatch(1);

  @BeforeEach
  void start() {
    lake =
        TestLake.withCatalog(
            dir,
            plugin -> {
              checks = new HeldChecks(plugin.resolver());
              List<TableReader> readers = new ArrayList<>();
              plugin.readers().forEach(r -> readers.add(new Signalling(r, pulled)));
              return new CatalogPlugin(checks, readers, plugin.owner());
            });
  }

  @AfterEach
  void stop() {
    lake.close();
  }

  @Test
  void doGet_runsTheStatementWhileTheCheckRuns_andSendsItsRowsOnceTheCheckPassed()
      throws Exception {
    // GIVEN a ticket, and a catalog check that does not answer yet
    FlightSqlClient client = lake.client();
    Ticket ticket = ticketFor(client);
    checks.gate = new CompletableFuture<>();

    // WHEN the ticket is redeemed
    CompletableFuture<Long> rows = CompletableFuture.supplyAsync(() -> count(client, ticket));

    // THEN the engine reads the table while the check is still running, and the call waits
    assertThat(pulled.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(rows).isNotDone();
    // AND once the check passes, the rows arrive
    checks.gate.complete(null);
    assertThat(rows.get(60, TimeUnit.SECONDS)).isEqualTo(25L);
  }

  @Test
  void doGet_failsClosed_whenTheCheckFailsAfterTheStatementRan() throws Exception {
    // GIVEN a ticket, and a catalog check that does not answer yet
    FlightSqlClient client = lake.client();
    Ticket ticket = ticketFor(client);
    checks.gate = new CompletableFuture<>();
    CompletableFuture<Long> rows = CompletableFuture.supplyAsync(() -> count(client, ticket));
    assertThat(pulled.await(30, TimeUnit.SECONDS)).isTrue();

    // WHEN the check finds the snapshot gone after the statement read it
    checks.gate.completeExceptionally(
        new LakeException(
            ErrorCode.SNAPSHOT_GONE, "snapshot 7 of lake.tpch.nation is no longer retained"));

    // THEN the call fails with the check's error and no row
    assertThatThrownBy(() -> rows.get(60, TimeUnit.SECONDS))
        .cause()
        .isInstanceOf(FlightRuntimeException.class)
        .hasMessageContaining("snapshot 7 of lake.tpch.nation is no longer retained")
        .satisfies(
            e ->
                assertThat(((FlightRuntimeException) e).status().code())
                    .isEqualTo(FlightStatusCode.NOT_FOUND));
    // AND a fresh query whose check passes still succeeds
    checks.gate = CompletableFuture.completedFuture(null);
    assertThat(count(client, ticketFor(client))).isEqualTo(25L);
  }

  private Ticket ticketFor(FlightSqlClient client) {
    return client.execute(SQL, TestLake.bearer(TestLake.ALICE)).getEndpoints().get(0).getTicket();
  }

  /** The single count value the stream returns; a failure is rethrown unchecked. */
  private static long count(FlightSqlClient client, Ticket ticket) {
    try (FlightStream stream = client.getStream(ticket, TestLake.bearer(TestLake.ALICE))) {
      long value = -1;
      while (stream.next()) {
        value = ((Number) stream.getRoot().getVector(0).getObject(0)).longValue();
      }
      return value;
    } catch (FlightRuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The catalog's own checks followed by one the test completes ({@link #gate}). */
  static final class HeldChecks implements TableResolver {
    private final TableResolver delegate;
    volatile CompletableFuture<Void> gate = CompletableFuture.completedFuture(null);

    HeldChecks(TableResolver delegate) {
      this.delegate = delegate;
    }

    @Override
    public String catalog() {
      return delegate.catalog();
    }

    @Override
    public Snapshot resolve(TableRef ref) {
      return delegate.resolve(ref);
    }

    @Override
    public List<TableRef> listTables() {
      return delegate.listTables();
    }

    @Override
    public void verify(TableRef ref, Snapshot sealed) {
      delegate.verify(ref, sealed);
      gate.join();
    }

    @Override
    public Verification startVerifyAll(Map<TableRef, Snapshot> sealed) {
      return delegate.startVerifyAll(sealed).and(Verification.of(List.of(gate)));
    }
  }

  /** The catalog's reader, whose streams count {@code pulled} down at the first batch pulled. */
  static final class Signalling implements TableReader {
    private final TableReader delegate;
    private final CountDownLatch pulled;

    Signalling(TableReader delegate, CountDownLatch pulled) {
      this.delegate = delegate;
      this.pulled = pulled;
    }

    @Override
    public boolean supports(Snapshot snapshot) {
      return delegate.supports(snapshot);
    }

    @Override
    public Schema schema(TableRef ref, Snapshot snapshot) {
      return delegate.schema(ref, snapshot);
    }

    @Override
    public List<ArrowReader> scan(
        TableRef ref, Snapshot snapshot, ScanRequest request, BufferAllocator allocator) {
      List<ArrowReader> out = new ArrayList<>();
      for (ArrowReader r : delegate.scan(ref, snapshot, request, allocator)) {
        out.add(new Pulled(allocator, r, pulled));
      }
      return out;
    }
  }

  private static final class Pulled extends ArrowReader {
    private final ArrowReader delegate;
    private final CountDownLatch pulled;

    Pulled(BufferAllocator allocator, ArrowReader delegate, CountDownLatch pulled) {
      super(allocator);
      this.delegate = delegate;
      this.pulled = pulled;
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
      return delegate.getVectorSchemaRoot();
    }

    @Override
    public boolean loadNextBatch() throws IOException {
      pulled.countDown();
      return delegate.loadNextBatch();
    }

    @Override
    public long bytesRead() {
      return delegate.bytesRead();
    }

    @Override
    protected void closeReadSource() throws IOException {
      delegate.close();
    }

    @Override
    protected Schema readSchema() throws IOException {
      return delegate.getVectorSchemaRoot().getSchema();
    }
  }
}
