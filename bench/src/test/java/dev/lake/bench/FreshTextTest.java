package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreshTextTest {
  private static final String Q6 = "SELECT sum(x) FROM lake.tpch.lineitem WHERE x < 24\n";
  private static final String Q3 = "SELECT x FROM lake.tpch.orders\nORDER BY x\nLIMIT 10\n";

  @Test
  void of_givesEveryRunANewText_ofBothKinds() {
    Set<String> texts = new HashSet<>();
    for (long n = 1; n <= 100; n++) {
      texts.add(FreshText.of("comment", Q6, n));
      texts.add(FreshText.of("literal", Q6, n));
      texts.add(FreshText.of("literal", Q3, n));
    }
    assertThat(texts).hasSize(300);
  }

  @Test
  void of_keepsTheStatement_behindACommentOrALimitAboveAnyResult() {
    assertThat(FreshText.of("comment", Q6, 7)).startsWith("/* run ").endsWith("*/ " + Q6);
    assertThat(FreshText.of("literal", Q6, 7))
        .startsWith(Q6.strip() + "\nLIMIT ")
        .matches("(?s).*LIMIT \\d{10,}");
    // a statement's own LIMIT keeps its value; only a zero-valued term is new
    assertThat(FreshText.of("literal", Q3, 7))
        .startsWith("SELECT x FROM lake.tpch.orders\nORDER BY x\nLIMIT 10 + 0 * ")
        .matches("(?s).*LIMIT 10 \\+ 0 \\* \\d{10,}");
  }

  @Test
  void next_sendsTheSidesOwnText_unlessItAsksForAFreshOne() {
    ClientSpec.Side plain = ClientSpec.Side.of("lance", ClientSpec.Kind.FLIGHT_SQL, "grpc://x", Q6);
    ClientSpec.Side fresh =
        new ClientSpec.Side(
            "lance-comment",
            ClientSpec.Kind.FLIGHT_SQL,
            "grpc://x",
            Q6,
            java.util.Map.of(FreshText.OPTION, "comment"));

    assertThat(FreshText.next(plain)).isEqualTo(Q6);
    assertThat(FreshText.next(fresh)).isNotEqualTo(FreshText.next(fresh));
    assertThatThrownBy(() -> FreshText.of("other", Q6, 1))
        .hasMessage("unknown fresh-text kind: other");
  }
}
