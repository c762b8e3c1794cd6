package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class AdmissionGatesTest {
  @Test
  void enter_failsOverloaded_whenTenantGateIsFull() {
    // GIVEN a tenant holding its only slot
    AdmissionGates gates = new AdmissionGates(4, 1, Duration.ofMillis(20));
    try (AdmissionGates.Permit held = gates.enter("acme")) {
      // WHEN the same tenant asks again THEN it is told to retry
      assertThatThrownBy(() -> gates.enter("acme"))
          .isInstanceOf(LakeException.class)
          .hasMessage("Server busy, retry later")
          .extracting(e -> ((LakeException) e).code())
          .isEqualTo(ErrorCode.OVERLOADED);
      // AND another tenant still gets in
      try (AdmissionGates.Permit other = gates.enter("globex")) {
        assertThat(gates.availableGlobal()).isEqualTo(2);
      }
    }
    assertThat(gates.availableGlobal()).isEqualTo(4);
  }

  @Test
  void enter_failsOverloaded_whenGlobalGateIsFull_andReleasesTenantSlot() {
    AdmissionGates gates = new AdmissionGates(1, 1, Duration.ZERO);
    AdmissionGates.Permit held = gates.enter("acme");
    assertThatThrownBy(() -> gates.enter("globex")).hasMessage("Server busy, retry later");
    held.close();
    held.close(); // idempotent
    // THEN the failed attempt left no tenant slot behind
    try (AdmissionGates.Permit again = gates.enter("globex")) {
      assertThat(gates.availableGlobal()).isZero();
    }
  }
}
