package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lake.core.LakeException;
import dev.lake.core.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TenantBudgetsTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-12-07T22:10:00Z"));

  @Test
  void defaults_areUnlimited_andBoundsAreValidatedNamingTheFlag() {
    assertThat(FrontDoorConfig.defaults().budgets()).isEqualTo(BudgetConfig.unlimited());
    assertThat(BudgetConfig.unlimited()).isEqualTo(new BudgetConfig(Duration.ofHours(1), 0, 0, 0));
    assertThat(new TenantBudgets(BudgetConfig.unlimited(), clock).enabled()).isFalse();
    assertThatThrownBy(() -> BudgetConfig.ofMebibytes(Duration.ofSeconds(5), 1, 0, 0))
        .hasMessage("--budget-window must be between PT1M and PT744H: PT5S");
    assertThatThrownBy(() -> BudgetConfig.ofMebibytes(Duration.ofHours(1), -1, 0, 0))
        .hasMessage("--budget-scanned-mb must be between 0 and 1125899906842624: -1");
  }

  @Test
  void batchOverTheEgressBudget_isRefusedUncharged_untilTheWindowTurns() {
    // GIVEN 1 MiB of egress per hour and a part download that sent 768 KiB
    TenantBudgets budgets =
        new TenantBudgets(BudgetConfig.ofMebibytes(Duration.ofHours(1), 0, 0, 1), clock);
    budgets.chargeBatch("acme", 768 << 10, false);
    // WHEN the next 512 KiB batch would cross THEN it is refused, naming budget and reset
    assertThatThrownBy(() -> budgets.chargeBatch("acme", 512 << 10, false))
        .isInstanceOf(LakeException.class)
        .hasMessage(
            "Tenant acme is over its egress-bytes budget (the next batch would bring it to 1.3 MiB"
                + " of 1.0 MiB per PT1H, --budget-egress-mb); it resets at 2026-12-07T23:00:00Z");
    // AND a smaller one still fits (the refused batch was not charged); other tenants unaffected
    budgets.chargeBatch("acme", 256 << 10, false);
    budgets.checkBeforeStart("globex");
    assertThatThrownBy(() -> budgets.checkBeforeStart("acme"))
        .hasMessageStartingWith(
            "Tenant acme is over its egress-bytes budget (used 1.0 MiB of 1.0 MiB");
    // AND the next window starts from zero
    clock.advance(Duration.ofMinutes(50));
    budgets.checkBeforeStart("acme");
    budgets.chargeBatch("acme", 1 << 20, false);
  }
}
