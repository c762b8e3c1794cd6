package dev.lake.durable;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link FaultScenarios} on the embedded ports (local mode). */
class LocalFaultTest extends FaultScenarios {
  @TempDir Path dir;

  @Override
  protected Ports ports() {
    return LocalPorts.create(dir);
  }
}
