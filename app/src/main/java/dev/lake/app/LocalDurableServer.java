package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.durable.DurableTier;
import dev.lake.durable.DurableTierConfig;
import dev.lake.frontdoor.Authenticator;
import dev.lake.frontdoor.Components;
import dev.lake.frontdoor.FrontDoorConfig;
import dev.lake.frontdoor.LakeServer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * A front door with the local durable tier on, wired as {@code bin/lake local} wires it (file job
 * store under {@code <dataDir>/jobs}, results under {@code <dataDir>/results}, in-process queue and
 * workers over the given components), for embedders outside this package such as the bench. Closing
 * stops the listener, then the tier (its workers and sweep timer); the components and {@code
 * dataDir} belong to the caller.
 */
public final class LocalDurableServer implements AutoCloseable {
  private final LakeServer server;
  private final DurableTier tier;

  private LocalDurableServer(LakeServer server, DurableTier tier) {
    this.server = server;
    this.tier = tier;
  }

  /**
   * Starts the tier under {@code dataDir}, then the listener; throws {@link IllegalStateException}
   * when the transport rule forbids listening (the tier is closed again).
   */
  public static LocalDurableServer start(
      FrontDoorConfig config,
      Components components,
      Authenticator principals,
      Clock clock,
      Path dataDir,
      DurableTierConfig durable) {
    requireNonNull(dataDir, "dataDir is null");
    requireNonNull(durable, "durable is null");
    requireNonNull(components, "components is null");
    requireNonNull(clock, "clock is null");
    DurableTier tier = DurableTier.local(dataDir, components.durableInputs(), durable, clock);
    try {
      return new LocalDurableServer(
          LakeServer.start(config, components, principals, clock, Optional.of(tier)), tier);
    } catch (RuntimeException e) {
      tier.close();
      throw e;
    }
  }

  /** The listening server (port, host). */
  public LakeServer server() {
    return server;
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      tier.close();
    }
  }
}
