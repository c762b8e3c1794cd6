package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LakeSettingsTest {
  @Test
  void defaults_keepTheTimeoutAboveTheWorkerDeadlineAndConcurrencyBelowTheReservation() {
    LakeSettings d = LakeSettings.defaults();
    assertThat(d.workerTimeoutSeconds())
        .isGreaterThan(d.workerMaxExecutionSeconds() + d.workerMarginSeconds());
    assertThat(d.workerMaxConcurrency()).isLessThanOrEqualTo(d.workerReservedConcurrency());
    assertThat(d.frontDoorMinTasks()).isEqualTo(2);
    assertThat(d.resultExpiryDays()).isEqualTo(2);
    assertThat(d.internetFacing()).isTrue();
  }

  @Test
  void fromContext_overridesNamedValuesOnly() {
    Map<String, Object> context =
        Map.of("lake:workerReservedConcurrency", "40", "lake:internetFacing", "false");
    LakeSettings s = LakeSettings.fromContext(context::get);
    assertThat(s.workerReservedConcurrency()).isEqualTo(40);
    assertThat(s.internetFacing()).isFalse();
    assertThat(s.workerMaxConcurrency()).isEqualTo(LakeSettings.defaults().workerMaxConcurrency());
  }

  @Test
  void fromContext_rejectsMaxConcurrencyAboveTheReservation() {
    Map<String, Object> context =
        Map.of("lake:workerReservedConcurrency", "5", "lake:workerMaxConcurrency", "6");
    assertThatThrownBy(() -> LakeSettings.fromContext(context::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("workerMaxConcurrency must be between 2 and 5: 6");
  }

  @Test
  void fromContext_rejectsATimeoutNotAboveTheWorkerDeadline() {
    Map<String, Object> context = Map.of("lake:workerTimeoutSeconds", "860");
    assertThatThrownBy(() -> LakeSettings.fromContext(context::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("workerTimeoutSeconds must be between 861 and 900: 860");
  }

  @Test
  void fromContext_rejectsANonNumber() {
    Map<String, Object> context = Map.of("lake:frontDoorMaxTasks", "many");
    assertThatThrownBy(() -> LakeSettings.fromContext(context::get))
        .hasMessage("lake:frontDoorMaxTasks is not a number: many");
  }
}
