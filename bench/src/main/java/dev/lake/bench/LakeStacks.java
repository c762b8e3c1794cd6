package dev.lake.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Starts the lake stack if the lake modules it needs are on the class path; otherwise says which
 * ones are missing, so the metrics report "not available" instead of a number.
 */
final class LakeStacks {
  /** A started stack, or the reason there is none. */
  record Started(Optional<LakeStack> stack, String missing) {}

  /** Lake parts by the class that proves they are built. */
  static final List<String[]> PARTS =
      List.of(
          new String[] {"dev.lake.engine.DuckDbQueryEngine", "the DuckDB engine (shared/engine)"},
          new String[] {"dev.lake.lance.demo.TpchDemo", "the TPC-H Lance generator (shared/lance)"},
          new String[] {"dev.lake.app.LakeCli", "the Flight SQL front door (app)"});

  private LakeStacks() {}

  static Started start(BenchContext context) throws Exception {
    List<String> missing = missingParts();
    if (!missing.isEmpty()) {
      return new Started(Optional.empty(), "not built yet: " + String.join(", ", missing));
    }
    return new Started(Optional.of(LocalLakeStack.start(context)), "");
  }

  static List<String> missingParts() {
    List<String> missing = new ArrayList<>();
    for (String[] part : PARTS) {
      if (!present(part[0])) {
        missing.add(part[1]);
      }
    }
    return missing;
  }

  static boolean present(String className) {
    try {
      Class.forName(className, false, LakeStacks.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
