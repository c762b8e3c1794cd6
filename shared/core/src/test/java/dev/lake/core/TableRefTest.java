package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class TableRefTest {
  @Test
  void parse_acceptsThreePartNames_andQuotedNestedNamespaces() {
    assertThat(TableRef.parse("LAKE.TPCH.Nation"))
        .isEqualTo(new TableRef("lake", "tpch", "nation"));
    TableRef nested = TableRef.parse("iceberg.\"a.b\".t");
    assertThat(nested.namespace()).isEqualTo("a.b");
    assertThat(nested.toString()).isEqualTo("iceberg.\"a.b\".t");
  }

  @Test
  void parse_rejects_partialNames() {
    assertThatThrownBy(() -> TableRef.parse("nation"))
        .hasMessage("Table name 'nation' must be fully qualified as catalog.namespace.table");
    assertThatThrownBy(() -> TableRef.parse("tpch.nation"))
        .hasMessage("Table name 'tpch.nation' must be fully qualified as catalog.namespace.table");
    assertThatThrownBy(() -> TableRef.parse("iceberg.a.b.t"))
        .hasMessage("Table name 'iceberg.a.b.t': quote a nested namespace, e.g. iceberg.\"a.b\".t");
    assertThatThrownBy(() -> new TableRef("lake", "tp ch", "t"))
        .hasMessage("Invalid namespace name 'tp ch': use letters, digits and _ (at most 128)");
  }

  @Test
  void principal_mayRead_onlyGrantedNamespacesOrTables() {
    Principal p = Principal.of("acme", "alice", Set.of("lake.tpch", "iceberg.sales.orders"));
    assertThat(p.mayRead(TableRef.parse("lake.tpch.nation"))).isTrue();
    assertThat(p.mayRead(TableRef.parse("lake.other.nation"))).isFalse();
    assertThat(p.mayRead(TableRef.parse("iceberg.sales.orders"))).isTrue();
    assertThat(p.mayRead(TableRef.parse("iceberg.sales.refunds"))).isFalse();
  }
}
