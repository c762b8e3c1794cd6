package dev.lake.worker;

import dev.lake.core.local.FileJobStore;
import dev.lake.core.local.InProcessJobQueue;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.local.LocalObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;

/** Worker scenarios on the embedded ports (local mode). */
class LocalWorkerTest extends WorkerScenarios {
  @TempDir Path dir;

  @Override
  protected Ports ports() {
    return new Ports(
        new FileJobStore(dir.resolve("jobs")),
        new InProcessJobQueue(Duration.ofSeconds(30), Clock.systemUTC()),
        new LocalObjectStore(dir.resolve("objects")),
        LocalKeyRing.loadOrCreate(dir.resolve("keys.json")));
  }
}
