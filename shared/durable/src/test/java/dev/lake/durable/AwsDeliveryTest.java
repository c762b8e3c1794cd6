package dev.lake.durable;

import dev.lake.aws.testing.MotoExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DeliveryScenarios} on the AWS adapters against moto. */
@ExtendWith(MotoExtension.class)
class AwsDeliveryTest extends DeliveryScenarios {
  @RegisterExtension static final AwsPorts AWS = new AwsPorts();

  @Override
  protected Ports ports() {
    return AWS.create();
  }
}
