package dev.lake.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.aws.testing.AwsTestKit;
import dev.lake.aws.testing.MotoExtension;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** KmsKeyService beyond the port contract, on moto. */
@ExtendWith(MotoExtension.class)
class KmsKeyServiceTest {
  @Test
  void current_whenEveryKeyOutlivedItsLifetime_isExternalUnavailable_untilARotation() {
    // GIVEN a ring whose only key was created 49 h ago (no refresh rotated since: KMS was down)
    AwsTestKit.Resources aws = AwsTestKit.create();
    try {
      MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
      KmsKeyService keys =
          new KmsKeyService(
              aws.clients().kms(),
              aws.config().kmsKeyId(),
              new S3ObjectStore(
                  aws.clients().s3(), aws.config().bucket(), "keys-" + UUID.randomUUID()),
              KmsKeyConfig.defaults(),
              clock,
              false);
      assertThat(keys.current()).isNotNull();
      clock.advance(KmsKeyConfig.defaults().keyLifetime().plus(Duration.ofHours(1)));
      // WHEN a ticket is to be sealed THEN the key service is unavailable, not an internal error
      assertThatThrownBy(keys::current)
          .isInstanceOfSatisfying(
              LakeException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE))
          .hasMessageContaining("no live ticket key");
      // AND the next successful rotation serves again
      assertThat(keys.rotate().id()).isEqualTo(keys.current().id());
    } finally {
      aws.clients().close();
    }
  }
}
