package dev.lake.lance;

import static dev.lake.core.TableFormats.number;
import static dev.lake.core.TableFormats.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.TableFormat;

/**
 * The Lance table format: lake's own registered tables ({@code lake.<namespace>.<table>}), sealed
 * as tag {@code lance} with the dataset location, registry incarnation and Lance version.
 * Registered in {@code META-INF/services/dev.lake.core.TableFormat}.
 */
public final class LanceFormat implements TableFormat<LanceSnapshot> {
  /** The codec tag inside sealed envelopes. */
  public static final String TAG = "lance";

  @Override
  public String tag() {
    return TAG;
  }

  @Override
  public Class<LanceSnapshot> snapshotType() {
    return LanceSnapshot.class;
  }

  @Override
  public void encode(LanceSnapshot snapshot, ObjectNode node) {
    node.put("location", snapshot.location());
    node.put("incarnation", snapshot.incarnation());
    node.put("version", snapshot.version());
  }

  @Override
  public LanceSnapshot decode(JsonNode node) {
    return new LanceSnapshot(
        text(node, "location"), text(node, "incarnation"), number(node, "version"));
  }
}
