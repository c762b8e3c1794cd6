package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import org.junit.jupiter.api.Test;

class LikePatternTest {
  @Test
  void matches_followsSqlLikeRules() {
    assertThat(LikePattern.compile("%").matches("lineitem")).isTrue();
    assertThat(LikePattern.compile("%").matches("")).isTrue();
    assertThat(LikePattern.compile("line%").matches("lineitem")).isTrue();
    assertThat(LikePattern.compile("%item").matches("lineitem")).isTrue();
    assertThat(LikePattern.compile("%ne%it%").matches("lineitem")).isTrue();
    assertThat(LikePattern.compile("n_tion").matches("nation")).isTrue();
    assertThat(LikePattern.compile("n_tion").matches("ntion")).isFalse();
    assertThat(LikePattern.compile("a.c").matches("abc")).isFalse();
    assertThat(LikePattern.compile("a\\_b").matches("a_b")).isTrue();
    assertThat(LikePattern.compile("a\\_b").matches("axb")).isFalse();
    assertThat(LikePattern.compile("a\\%").matches("a%")).isTrue();
    assertThat(LikePattern.compile("a\\%").matches("ab")).isFalse();
    assertThat(LikePattern.compile("LINE%").matches("lineitem")).isTrue();
    assertThat(LikePattern.compile("nation").matches("nations")).isFalse();
    assertThat(LikePattern.compile("").matches("")).isTrue();
    assertThat(LikePattern.compile("").matches("a")).isFalse();
    assertThat(LikePattern.compile(null).matches("anything")).isTrue();
  }

  @Test
  void matches_staysFast_onPatternsThatMakeRegexesBacktrack() {
    // GIVEN the pattern that pinned a core through a regex: many % then a character never present
    String hostile = "%".repeat(200) + "_%".repeat(400) + "x";
    String name = "a".repeat(2_000);
    LikePattern pattern = LikePattern.compile(hostile);
    // WHEN matched 100 times against a long name
    long start = System.nanoTime();
    for (int i = 0; i < 100; i++) {
      assertThat(pattern.matches(name)).isFalse();
    }
    // THEN it answers in bounded (pattern × name) time
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
  }

  @Test
  void compile_rejectsOverlongPatterns_withInvalidArgument() {
    assertThatThrownBy(() -> LikePattern.compile("%".repeat(LikePattern.MAX_CHARS + 1)))
        .isInstanceOf(LakeException.class)
        .hasMessageContaining("longer than 1024")
        .extracting(e -> ((LakeException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }
}
