package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StatementsTest {
  @Test
  void split_cutsAtSemicolonsOutsideQuotesAndComments() {
    String text = "SELECT 'a;b' AS \"x;y\"; -- c;d\nSELECT /* e;f */ 2;\n\n  SELECT 3  ";

    assertThat(Statements.split(text))
        .containsExactly("SELECT 'a;b' AS \"x;y\"", "-- c;d\nSELECT /* e;f */ 2", "SELECT 3");
  }

  @Test
  void split_dropsBlankStatements() {
    assertThat(Statements.split(" ; ;\n")).isEmpty();
  }

  @Test
  void complete_onlyWhenTheLastSemicolonIsOutsideQuotes() {
    assertThat(Statements.complete("SELECT 1;")).isTrue();
    assertThat(Statements.complete("SELECT 1;\n")).isTrue();
    assertThat(Statements.complete("SELECT 1")).isFalse();
    assertThat(Statements.complete("SELECT ';")).isFalse();
    assertThat(Statements.complete("SELECT 1; SELECT")).isFalse();
  }
}
