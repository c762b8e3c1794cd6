package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReleasingAllocatorTest {
  private final BufferAllocator root = new RootAllocator();

  @AfterEach
  void close() {
    root.close(); // throws if a child allocator or buffer was left behind
  }

  @Test
  void close_withNothingHeld_closesAtOnce() {
    ReleasingAllocator a = ReleasingAllocator.childOf(root, "empty");
    a.allocator().buffer(64).close();
    a.close();
    assertThat(a.closed()).isTrue();
    assertThat(root.getChildAllocators()).isEmpty();
  }

  @Test
  void close_whileABufferIsHeld_closesAtItsLastReleaseOnAnotherThread() throws Exception {
    // GIVEN a buffer still referenced by a writer (gRPC, until Netty has written it)
    ReleasingAllocator a = ReleasingAllocator.childOf(root, "held");
    ArrowBuf held = a.allocator().buffer(1024);
    // WHEN its owner closes the allocator THEN it stays open while the buffer is held
    a.close();
    assertThat(a.closed()).isFalse();
    assertThat(root.getAllocatedMemory()).isEqualTo(1024);
    // AND the release on another thread closes it
    CompletableFuture.runAsync(held::close).get(10, TimeUnit.SECONDS);
    assertThat(a.closed()).isTrue();
    assertThat(root.getChildAllocators()).isEmpty();
  }

  @Test
  void awaitDrained_isBounded_andEndsAtTheRelease() throws Exception {
    ReleasingAllocator a = ReleasingAllocator.childOf(root, "drain");
    ArrowBuf held = a.allocator().buffer(64);
    // GIVEN a held buffer WHEN waiting briefly THEN the wait reports it still held
    assertThat(a.awaitDrained(Duration.ofMillis(20))).isFalse();
    // WHEN it is released on another thread THEN a waiting drain ends
    CompletableFuture<Boolean> drained =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return a.awaitDrained(Duration.ofSeconds(30));
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    held.close();
    assertThat(drained.get(10, TimeUnit.SECONDS)).isTrue();
    a.close();
    assertThat(a.closed()).isTrue();
  }
}
