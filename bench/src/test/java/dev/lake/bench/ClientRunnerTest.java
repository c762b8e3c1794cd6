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
      Schema schema =
          new Schema(
              List.of(Field.nullable("k", new IntVector("k", allocator).getField().getType())));
      try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
        IntVector k = (IntVector) root.getVector("k");
        for (int i = 0; i < 25; i++) {
          k.setSafe(i, i);
        }
        root.setRowCount(25);
        raw.put(
            "t",
            new RawFlightServer.Dataset(
                schema, List.of(new VectorUnloader(root).getRecordBatch())));
      }
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
}
