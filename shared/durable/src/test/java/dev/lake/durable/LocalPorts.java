package dev.lake.durable;

import dev.lake.core.local.FileJobStore;
import dev.lake.core.local.InProcessJobQueue;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.core.local.LocalObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/** The embedded ports (local mode) under test, all kept under one directory. */
public final class LocalPorts {
  private LocalPorts() {}

  public static WorkerFixture.Ports create(Path dir) {
    return new WorkerFixture.Ports(
        new FileJobStore(dir.resolve("jobs")),
        new InProcessJobQueue(Duration.ofSeconds(30), Clock.systemUTC()),
        new LocalObjectStore(dir.resolve("objects")),
        LocalKeyRing.loadOrCreate(dir.resolve("keys.json")));
  }
}
