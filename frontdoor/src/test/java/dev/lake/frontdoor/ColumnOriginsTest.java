package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.TableRef;
import dev.lake.frontdoor.ColumnMetadata.ColumnOrigin;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ColumnOriginsTest {
  private static final TableRef NATION = TableRef.parse("lake.tpch.nation");
  private static final Optional<ColumnOrigin> FROM_NATION =
      Optional.of(new ColumnOrigin("lake", "tpch", "nation"));

  private static AdmittedQuery select(String sql) {
    return AdmittedQuery.of(sql, AdmittedQuery.Kind.SELECT, List.of(NATION));
  }

  @Test
  void of_namesTheTableOfEveryColumn_forAPlainStar() {
    // GIVEN a star over one lake table; WHEN origins are asked for its 4 columns
    List<Optional<ColumnOrigin>> origins =
        ColumnOrigins.of(select("SELECT * FROM lake.tpch.nation"), 4);

    // THEN every column comes from that table
    assertThat(origins).containsExactly(FROM_NATION, FROM_NATION, FROM_NATION, FROM_NATION);
  }

  @Test
  void of_namesBareColumnsOnly_andNothingWhenTheSelectListDoesNotMatchTheColumns() {
    AdmittedQuery query =
        select("SELECT n_name, n_nationkey + 1 AS k FROM lake.tpch.nation WHERE n_regionkey = 1");

    assertThat(ColumnOrigins.of(query, 2)).containsExactly(FROM_NATION, Optional.empty());
    assertThat(ColumnOrigins.of(query, 3)).containsOnly(Optional.empty()).hasSize(3);
  }

  @Test
  void of_parsesAStatementTextOnce_forRepeatedPlanningAndStreaming() {
    // GIVEN a statement text nobody asked about yet (a fresh alias makes it unique)
    String alias = "c" + UUID.randomUUID().toString().replace("-", "");
    AdmittedQuery query = select("SELECT n_name AS " + alias + " FROM lake.tpch.nation");
    long before = ColumnOrigins.parsesForTest();

    // WHEN its origins are asked for as a GetFlightInfo and three DoGets would
    for (int i = 0; i < 4; i++) {
      assertThat(ColumnOrigins.of(query, 1)).containsExactly(FROM_NATION);
    }

    // THEN DuckDB parsed the text once and every answer names the table (a renamed bare column
    // keeps its table)
    assertThat(ColumnOrigins.parsesForTest() - before).isEqualTo(1);
  }

  @Test
  void of_hasNoOrigins_forJoinsAndNonSelects() {
    AdmittedQuery explain =
        AdmittedQuery.of(
            "EXPLAIN SELECT * FROM lake.tpch.nation", AdmittedQuery.Kind.EXPLAIN, List.of(NATION));
    AdmittedQuery join =
        AdmittedQuery.of(
            "SELECT * FROM lake.tpch.nation, lake.tpch.region",
            AdmittedQuery.Kind.SELECT,
            List.of(NATION, TableRef.parse("lake.tpch.region")));

    assertThat(ColumnOrigins.of(explain, 2)).containsOnly(Optional.empty()).hasSize(2);
    assertThat(ColumnOrigins.of(join, 2)).containsOnly(Optional.empty()).hasSize(2);
  }
}
