package dev.lake.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.AdmittedQuery;
import dev.lake.core.TableRef;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The result columns' tables come from the admission parse; an origin is never guessed. */
class AdmittedOriginsTest {
  private static final DuckDbSqlAdmission ADMISSION = new DuckDbSqlAdmission();
  private static final Optional<TableRef> NATION = Optional.of(TableRef.parse("lake.tpch.nation"));

  @AfterAll
  static void close() {
    ADMISSION.close();
  }

  @Test
  void admit_namesTheTableOfEveryColumn_forAPlainStar() {
    // GIVEN a star over one lake table; WHEN it is admitted
    AdmittedQuery query = ADMISSION.admit("SELECT * FROM lake.tpch.nation");

    // THEN every one of its 4 columns comes from that table
    assertThat(query.origins().forColumns(4)).containsExactly(NATION, NATION, NATION, NATION);
  }

  @Test
  void admit_namesBareAndRenamedColumnsOnly_andNothingWhenTheCountDoesNotMatch() {
    AdmittedQuery query =
        ADMISSION.admit(
            "SELECT n_name AS nm, n_nationkey + 1 AS k FROM lake.tpch.nation WHERE n_regionkey = 1");

    assertThat(query.origins().forColumns(2)).containsExactly(NATION, Optional.empty());
    assertThat(query.origins().forColumns(3)).containsOnly(Optional.empty()).hasSize(3);
  }

  @Test
  void admit_hasNoOrigins_forJoinsCtesAggregatesAndExplain() {
    for (String sql :
        List.of(
            "SELECT * FROM lake.tpch.nation, lake.tpch.region",
            "WITH n AS (SELECT * FROM lake.tpch.nation) SELECT * FROM n",
            "SELECT count(*) FROM lake.tpch.nation",
            "SELECT * FROM lake.tpch.nation UNION ALL SELECT * FROM lake.tpch.nation",
            "EXPLAIN SELECT * FROM lake.tpch.nation")) {
      assertThat(ADMISSION.admit(sql).origins().forColumns(2))
          .as(sql)
          .containsOnly(Optional.empty())
          .hasSize(2);
    }
  }

  @Test
  void equality_ignoresOrigins_soARebuiltQueryIsTheSameCacheKey() {
    // GIVEN an admitted statement and the same statement rebuilt without origins (a job envelope)
    AdmittedQuery admitted = ADMISSION.admit("SELECT n_name FROM lake.tpch.nation");
    AdmittedQuery rebuilt =
        new AdmittedQuery(admitted.sql(), admitted.kind(), new TreeSet<>(admitted.tables()));

    // THEN they are equal with equal hashes, though only the admitted one knows its origins
    assertThat(rebuilt).isEqualTo(admitted).hasSameHashCodeAs(admitted);
    assertThat(admitted.origins().forColumns(1)).containsExactly(NATION);
    assertThat(rebuilt.origins().forColumns(1)).containsExactly(Optional.empty());
  }
}
