package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.SnapshotSet;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DuckDbQueryEngineLifecycleTest {
  @TempDir Path dir;

  @Test
  void close_isIdempotent_andLaterCallsFailWithAClearError() {
    // GIVEN an engine with its snapshot cache on, closed once
    EngineConfig config =
        EngineConfig.defaults(dir.resolve("spill")).withSnapshotCacheBytes(64L << 20);
    DuckDbQueryEngine engine = new DuckDbQueryEngine(config, List.of());
    engine.close();

    // WHEN closed again THEN nothing is released twice
    assertThatCode(engine::close).doesNotThrowAnyException();

    // AND a later query is refused as an engine that is closed, not with a native-library error
    try (DuckDbSqlAdmission admission = new DuckDbSqlAdmission();
        RootAllocator allocator = new RootAllocator()) {
      var query = admission.admit("SELECT 1");
      assertThatThrownBy(() -> engine.execute(query, List.of(), SnapshotSet.empty(), allocator))
          .isInstanceOfSatisfying(
              LakeException.class,
              e ->
                  org.assertj.core.api.Assertions.assertThat(e.code())
                      .isEqualTo(ErrorCode.OVERLOADED))
          .hasMessage("The query engine is closed");
    }
  }
}
