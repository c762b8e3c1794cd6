package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;

class CdkNagTest {
  private final Synthesized synthesized = Synthesized.get();

  @Test
  void awsSolutionsChecks_reportNoError() {
    // GIVEN the stack with the AwsSolutions pack applied WHEN synthesized THEN no finding remains
    assertThat(synthesized.annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))
        .extracting(m -> m.getId() + " " + m.getEntry().getData())
        .isEmpty();
  }

  @Test
  void awsSolutionsChecks_reportNoWarning() {
    assertThat(synthesized.annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")))
        .extracting(m -> m.getId() + " " + m.getEntry().getData())
        .isEmpty();
  }
}
