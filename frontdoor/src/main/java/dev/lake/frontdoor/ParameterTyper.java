package dev.lake.frontdoor;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.SnapshotSet;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow types of a statement's {@code ?} / {@code $n} placeholders, in order. Clients (the
 * official JDBC driver above all) build their parameter vectors from this schema, so each field
 * must carry the type the engine expects.
 */
@FunctionalInterface
interface ParameterTyper {
  Schema parameters(AdmittedQuery query, SnapshotSet snapshots);
}
