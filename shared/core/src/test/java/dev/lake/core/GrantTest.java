package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GrantTest {
  @Test
  void parse_readsNamespaceAndTableGrants_withTableRefRules() {
    assertThat(Grant.parse("LAKE.TPCH")).isEqualTo(Grant.namespace("lake", "tpch"));
    assertThat(Grant.parse("lake.tpch.Nation"))
        .isEqualTo(new Grant("lake", "tpch", Optional.of("nation")));
    assertThat(Grant.parse("iceberg.\"a.b\"")).isEqualTo(Grant.namespace("iceberg", "a.b"));
    assertThat(Grant.parse("iceberg.\"a.b\".t"))
        .isEqualTo(Grant.table(TableRef.parse("iceberg.\"a.b\".t")));
  }

  @Test
  void parse_readsUnquotedDots_asNamespaceThenTable_neverAsNestedNamespace() {
    // GIVEN the grant text iceberg.a.b
    Principal p = Principal.of("acme", "alice", Set.of("iceberg.a.b"));
    // THEN it is table b in namespace a, and namespace "a.b" is not granted
    assertThat(p.mayRead(TableRef.parse("iceberg.a.b"))).isTrue();
    assertThat(p.mayRead(TableRef.parse("iceberg.\"a.b\".t"))).isFalse();
    assertThat(p.mayRead(TableRef.parse("iceberg.a.other"))).isFalse();
  }

  @Test
  void nestedNamespaceGrant_coversItsTablesOnly() {
    Principal p = Principal.of("acme", "alice", Set.of("iceberg.\"a.b\""));
    assertThat(p.mayRead(TableRef.parse("iceberg.\"a.b\".t"))).isTrue();
    assertThat(p.mayRead(TableRef.parse("iceberg.a.b"))).isFalse();
    assertThat(p.mayRead(TableRef.parse("iceberg.\"a.b.c\".t"))).isFalse();
    assertThat(p.mayRead(TableRef.parse("lake.\"a.b\".t"))).isFalse();
  }

  @Test
  void toString_isCanonical_andParsesBack() {
    for (String text :
        List.of("lake.tpch", "lake.tpch.nation", "iceberg.\"a.b\"", "iceberg.\"a.b\".t")) {
      Grant g = Grant.parse(text);
      assertThat(g.toString()).isEqualTo(text);
      assertThat(Grant.parse(g.toString())).isEqualTo(g);
    }
  }

  @Test
  void parse_rejectsInvalidGrants_namingThem() {
    for (String bad :
        List.of(
            "lake",
            "lake.",
            ".tpch",
            "lake.a.b.c",
            "lake.\"a.b",
            "lake.\"a.b\"x",
            "lake.\"a.b\".",
            "lake.tp ch",
            "lake.tpch.*",
            "l@ke.tpch",
            "")) {
      assertThatThrownBy(() -> Grant.parse(bad))
          .as(bad)
          .isInstanceOf(LakeException.class)
          .hasMessageStartingWith("Invalid grant '" + bad + "': ")
          .extracting(e -> ((LakeException) e).code())
          .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }
  }
}
