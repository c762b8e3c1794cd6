package dev.lake.durable;

import dev.lake.aws.testing.MotoExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link FaultScenarios} on the AWS adapters against moto. */
@ExtendWith(MotoExtension.class)
class AwsFaultTest extends FaultScenarios {
  @RegisterExtension static final AwsPorts AWS = new AwsPorts();

  @Override
  protected Ports ports() {
    return AWS.create();
  }
}
