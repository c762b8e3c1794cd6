package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.bench.ClientSpec.Group;
import dev.lake.bench.ClientSpec.Kind;
import dev.lake.bench.ClientSpec.Samples;
import dev.lake.bench.ClientSpec.Side;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientRunnerTest {
  @TempDir Path work;

  @Test
  void forkedClientJvm_streamsFromTheRawServer_andReportsEveryInterleavedRun() throws Exception {
    // GIVEN a raw Flight server holding one 25-row batch
    try (RootAllocator allocator = new RootAllocator();
        RawFlightServer raw = new RawFlightServer(allocator)) {
      raw.put("t", oneBatch(allocator, 25));
      ClientSpec spec =
          new ClientSpec(
              1,
              3,
              "none",
              List.of(
                  new Group(
                      "g",
                      2,
                      List.of(
                          Side.of("a", Kind.FLIGHT, raw.uri(), "t"),
                          Side.of("b", Kind.FLIGHT, raw.uri(), "t")))));

      // WHEN the loop runs in a separate JVM
      ClientSpec.Outcome outcome = new ClientRunner(true, work).run(spec);

      // THEN each side has three timed runs of two concurrent requests of 25 rows each
      for (String side : List.of("a", "b")) {
        Samples s = outcome.get("g", side);
        assertThat(s.nanos()).hasSize(3).allMatch(n -> n > 0);
        assertThat(s.rows()).containsOnly(50L);
        assertThat(s.bytes()).allMatch(b -> b >= 50 * 4);
      }
    }
  }

  @Test
  void parts_fetchedInParallel_afterATimeBasedWarmupThatReportsWhatItUsed() throws Exception {
    // GIVEN a raw Flight server holding three 10-row batches served as parts of 10 rows
    try (RootAllocator allocator = new RootAllocator();
        RawFlightServer raw = new RawFlightServer(allocator)) {
      Schema schema =
          new Schema(
              List.of(Field.nullable("k", new IntVector("k", allocator).getField().getType())));
      List<org.apache.arrow.vector.ipc.message.ArrowRecordBatch> batches =
          new java.util.ArrayList<>();
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
        IntVector k = (IntVector) root.getVector("k");
        for (int b = 0; b < 3; b++) {
          for (int i = 0; i < 10; i++) {
            k.setSafe(i, b * 10 + i);
          }
          root.setRowCount(10);
          batches.add(new VectorUnloader(root).getRecordBatch());
        }
      }
      raw.putParts("t", new RawFlightServer.Dataset(schema, batches), 10);
      ClientSpec spec =
          new ClientSpec(
              1,
              2,
              "none",
              List.of(
                  new Group(
                      "g",
                      1,
                      List.of(
                          new Side(
                              "p",
                              Kind.FLIGHT,
                              raw.uri(),
                              "t",
                              java.util.Map.of("parallel", "2"))))),
              0,
              new ClientSpec.Warmup(0, 30_000, 2, 0.99));

      // WHEN the loop runs in this JVM
      ClientSpec.Outcome outcome = new ClientRunner(false, work).run(spec);

      // THEN every run fetched all three parts (30 rows) and the warm-up stopped once two
      // 2-run windows had medians within the (loose) tolerance, well before its 30 s cap
      Samples s = outcome.get("g", "p");
      assertThat(s.rows()).containsOnly(30L);
      assertThat(s.extra()).containsOnly(3L);
      ClientSpec.WarmupUsed warmup = outcome.warmups().get("g");
      assertThat(warmup.stable()).isTrue();
      assertThat(warmup.rounds()).isGreaterThanOrEqualTo(4);
      assertThat(outcome.warmupNote("g")).matches("warm-up \\d+ rounds / .* \\(median stable\\)");
    }
  }

  @Test
  void budgetedGroup_endsAfterAnOddNumberOfAtLeastThreeRounds_soItsMedianIsOneRun()
      throws Exception {
    // GIVEN a raw Flight server holding one batch, and a group whose 1 ms budget is spent at once
    try (RootAllocator allocator = new RootAllocator();
        RawFlightServer raw = new RawFlightServer(allocator)) {
      raw.put("t", oneBatch(allocator, 1));
      ClientSpec spec =
          new ClientSpec(
              0,
              10,
              "none",
              List.of(
                  new Group(
                      "g",
                      1,
                      List.of(
                          Side.of("a", Kind.FLIGHT, raw.uri(), "t"),
                          Side.of("b", Kind.FLIGHT, raw.uri(), "t")))),
              1,
              ClientSpec.Warmup.FIXED);

      // WHEN the loop runs in this JVM
      ClientSpec.Outcome outcome = new ClientRunner(false, work).run(spec);

      // THEN each side stopped after three rounds, not two and not all ten
      assertThat(outcome.get("g", "a").nanos()).hasSize(3);
      assertThat(outcome.get("g", "b").nanos()).hasSize(3);
    }
  }

  /** One batch of {@code rows} ints 0, 1, … in column {@code k}. */
  private static RawFlightServer.Dataset oneBatch(RootAllocator allocator, int rows) {
    Schema schema =
        new Schema(
            List.of(Field.nullable("k", new IntVector("k", allocator).getField().getType())));
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      IntVector k = (IntVector) root.getVector("k");
      for (int i = 0; i < rows; i++) {
        k.setSafe(i, i);
      }
      root.setRowCount(rows);
      return new RawFlightServer.Dataset(
          schema, List.of(new VectorUnloader(root).getRecordBatch()));
    }
  }
}
