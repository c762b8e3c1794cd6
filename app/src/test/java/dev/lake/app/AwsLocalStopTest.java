package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AwsLocalStopTest {
  private final List<String> stopped = new ArrayList<>();

  private AutoCloseable part(String name) {
    return () -> stopped.add(name);
  }

  @Test
  void inOrder_stopsTheWorker_thenTheFrontDoors_andTheEmulatorLast() {
    // GIVEN a worker, two front doors and a third that never started, and the emulator
    List<AutoCloseable> frontDoors = Arrays.asList(part("door-0"), part("door-1"), null);

    // WHEN aws-local stops
    AwsLocalStop.inOrder(Optional.of(part("worker")), frontDoors, part("emulator"));

    // THEN nothing that talks to the emulator outlives it
    assertThat(stopped).containsExactly("worker", "door-0", "door-1", "emulator");
  }

  @Test
  void inOrder_stillStopsEverything_whenAPartFailsToStop_andNamesTheFailure() {
    // GIVEN a worker whose stop fails, and no front door started yet
    AutoCloseable worker =
        () -> {
          stopped.add("worker");
          throw new IllegalStateException("worker would not stop");
        };

    // WHEN aws-local stops
    // THEN the emulator still stops, last, and the failure is reported
    assertThatThrownBy(() -> AwsLocalStop.inOrder(Optional.of(worker), List.of(), part("emulator")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("stopping aws-local failed: worker would not stop");
    assertThat(stopped).containsExactly("worker", "emulator");
  }
}
