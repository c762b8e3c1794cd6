package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  private static final Map<String, Object> VALUE = Map.of("a", 1, "b", Map.of("c", "d"));

  @Test
  void mapper_writesCompactJson_forEnvelopesAndRecords() throws Exception {
    // WHEN a value is written with the shared mapper
    String json = Json.mapper().writeValueAsString(VALUE);
    // THEN it is one line without indentation, and reads back equal
    assertThat(json).doesNotContain("\n").doesNotContain("  ");
    assertThat(Json.mapper().readValue(json, Map.class)).isEqualTo(VALUE);
  }

  @Test
  void pretty_indents_forHumanFacingFiles() throws Exception {
    // WHEN the same value is written for people
    String json = Json.pretty().writeValueAsString(VALUE);
    // THEN it spans several indented lines and still reads back equal
    assertThat(json).contains("\n  ");
    assertThat(Json.mapper().readValue(json, Map.class)).isEqualTo(VALUE);
  }
}
