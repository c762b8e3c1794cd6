package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlQuotingTest {
  @Test
  void identifier_doublesDoubleQuotes_andLeavesSingleQuotes() {
    // GIVEN a name that tries to close its identifier and add SQL
    String name = "a\"; DROP TABLE t; --'x";

    // WHEN quoted as an identifier
    String quoted = SqlQuoting.identifier(name);

    // THEN it is one delimited identifier with the quote doubled
    assertThat(quoted).isEqualTo("\"a\"\"; DROP TABLE t; --'x\"");
  }

  @Test
  void literal_doublesSingleQuotes_andLeavesDoubleQuotes() {
    assertThat(SqlQuoting.literal("/data/o'brien/\"x\".parquet"))
        .isEqualTo("'/data/o''brien/\"x\".parquet'");
    assertThat(SqlQuoting.literal("")).isEqualTo("''");
  }

  @Test
  void literalList_quotesEveryElement_andIsEmptyBracketsForNone() {
    assertThat(SqlQuoting.literalList(List.of("/a/", "/b'c/"))).isEqualTo("['/a/', '/b''c/']");
    assertThat(SqlQuoting.literalList(List.of())).isEqualTo("[]");
  }

  @Test
  void quoting_rejectsNull_namingTheArgument() {
    assertThatThrownBy(() -> SqlQuoting.identifier(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("text is null");
    assertThatThrownBy(() -> SqlQuoting.literal(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("text is null");
  }
}
