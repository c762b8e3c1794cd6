package dev.lake.core.testing;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.CatalogPlugin;
import dev.lake.core.ErrorCode;
import dev.lake.core.FormatContext;
import dev.lake.core.LakeException;
import dev.lake.core.Snapshot;
import dev.lake.core.TableFormat;
import dev.lake.core.TableFormats;
import java.util.Map;
import java.util.Optional;

/**
 * A snapshot of core's own test format (tag {@code test}), so core's tests need no real format
 * module; registered in core's test {@code META-INF/services/dev.lake.core.TableFormat}.
 */
public record TestSnapshot(String location, long version) implements Snapshot {
  public TestSnapshot {
    requireNonNull(location, "location is null");
  }

  @Override
  public String describe() {
    return "version " + version;
  }

  /** The test format: one line of registration, like any real format. */
  public static final class Format implements TableFormat<TestSnapshot> {
    @Override
    public String tag() {
      return "test";
    }

    @Override
    public Class<TestSnapshot> snapshotType() {
      return TestSnapshot.class;
    }

    @Override
    public void encode(TestSnapshot snapshot, ObjectNode node) {
      node.put("location", snapshot.location());
      node.put("version", snapshot.version());
    }

    @Override
    public TestSnapshot decode(JsonNode node) {
      return new TestSnapshot(
          TableFormats.text(node, "location"), TableFormats.number(node, "version"));
    }

    /** Registered tables need a location; any options are kept as they are. */
    @Override
    public void checkEntry(String location, Map<String, String> options) {
      if (location.isBlank()) {
        throw new LakeException(ErrorCode.INVALID_ARGUMENT, "A test table needs a location");
      }
    }

    /** Codec only: core's tests build their catalogs from fakes. */
    @Override
    public Optional<CatalogPlugin> open(FormatContext context) {
      return Optional.empty();
    }
  }
}
