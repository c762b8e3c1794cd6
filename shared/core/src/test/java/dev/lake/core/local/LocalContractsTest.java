package dev.lake.core.local;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lake.core.Json;
import dev.lake.core.KeyService;
import dev.lake.core.ObjectStore;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import dev.lake.core.contract.JobQueueContract;
import dev.lake.core.contract.JobStoreContract;
import dev.lake.core.contract.KeyServiceContract;
import dev.lake.core.contract.ObjectStoreContract;
import dev.lake.core.contract.RegistryContract;
import dev.lake.core.job.JobQueue;
import dev.lake.core.job.JobStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** The port contracts against the embedded (local-mode) implementations. */
class LocalContractsTest {
  @TempDir Path dir;

  @Nested
  class FileJobStoreContract extends JobStoreContract {
    @Override
    protected JobStore store() {
      return new FileJobStore(dir.resolve("jobs-" + UUID.randomUUID()));
    }
  }

  @Nested
  class InProcessJobQueueContract extends JobQueueContract {
    @Override
    protected JobQueue queue() {
      return new InProcessJobQueue(Duration.ofSeconds(1), Clock.systemUTC());
    }
  }

  @Nested
  class LocalObjectStoreContract extends ObjectStoreContract {
    @Override
    protected ObjectStore store() {
      return new LocalObjectStore(dir.resolve("objects-" + UUID.randomUUID()));
    }
  }

  @Nested
  class LocalKeyRingContract extends KeyServiceContract {
    private final String ring = "keyring-" + UUID.randomUUID() + ".json";

    @Override
    protected KeyService replica() {
      return LocalKeyRing.loadOrCreate(dir.resolve(ring));
    }

    @Override
    protected KeyService rotate(KeyService replica) {
      return LocalKeyRing.rotate(dir.resolve(ring), LocalKeyRing.DEFAULT_MAX_KEYS);
    }
  }

  @Nested
  class FileRegistryContract extends RegistryContract {
    @Override
    protected Registry registry() {
      return new FileRegistry(dir.resolve("registry-" + UUID.randomUUID() + ".json"));
    }

    @Override
    protected Registry sameRegistry(Registry registry) {
      return new FileRegistry(((FileRegistry) registry).file());
    }

    @Override
    protected String readAsLegacy(Registry registry, TableRef ref) {
      try {
        // FileRegistry's parse before format tags: name, location, incarnation, registeredAt
        for (JsonNode n :
            Json.mapper().readTree(((FileRegistry) registry).file().toFile()).path("tables")) {
          if (TableRef.parse(n.path("name").asText()).equals(ref)) {
            return n.path("location").asText();
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      throw new AssertionError(ref + " is not stored");
    }

    @Override
    protected void writeLegacy(Registry registry, TableRef ref, String location) {
      String legacy =
          "{\"tables\":[{\"name\":\""
              + ref
              + "\",\"location\":\""
              + location
              + "\",\"incarnation\":\"inc-legacy\",\"registeredAt\":1}]}";
      try {
        Files.writeString(((FileRegistry) registry).file(), legacy);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
