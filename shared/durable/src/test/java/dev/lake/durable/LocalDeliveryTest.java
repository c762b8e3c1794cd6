package dev.lake.durable;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link DeliveryScenarios} on the embedded ports (local mode). */
class LocalDeliveryTest extends DeliveryScenarios {
  @TempDir Path dir;

  @Override
  protected Ports ports() {
    return LocalPorts.create(dir);
  }
}
