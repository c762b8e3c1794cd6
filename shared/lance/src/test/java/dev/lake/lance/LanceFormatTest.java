package dev.lake.lance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import dev.lake.core.SnapshotSet;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import dev.lake.core.ticket.SnapshotCodec;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LanceFormatTest {
  @Test
  void lance_isInstalled_andKeepsItsEnvelopeEncoding() throws Exception {
    // GIVEN a sealed-set entry exactly as earlier releases wrote it for a Lance table
    JsonNode wire =
        Json.mapper()
            .readTree(
                "[{\"catalog\":\"lake\",\"namespace\":\"tpch\",\"table\":\"nation\","
                    + "\"type\":\"lance\",\"location\":\"/data/nation.lance\","
                    + "\"incarnation\":\"inc-1\",\"version\":3}]");
    SnapshotSet set =
        new SnapshotSet(
            Map.of(
                TableRef.parse("lake.tpch.nation"),
                new LanceSnapshot("/data/nation.lance", "inc-1", 3)));
    // THEN the Lance module's format is registered and reads and writes that same form
    assertThat(TableFormats.installed().tags()).contains(LanceFormat.TAG);
    assertThat(SnapshotCodec.fromJson(wire)).isEqualTo(set);
    assertThat(Json.mapper().readTree(SnapshotCodec.toJson(set).toString())).isEqualTo(wire);
  }
}
