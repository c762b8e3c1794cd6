package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.FlightProducer.ServerStreamListener;

/**
 * Charges each batch to the tenant's budgets before it is sent ({@link TenantBudgets#chargeBatch});
 * a batch over a budget throws from {@code putNext}, which ends the stream with RESOURCE_EXHAUSTED
 * (the streamer reports it and closes the execution).
 */
final class BudgetedListener extends MeteringStreamListener {
  private final TenantBudgets budgets;
  private final String tenant;
  private final boolean result;

  private BudgetedListener(
      ServerStreamListener delegate, TenantBudgets budgets, String tenant, boolean result) {
    super(delegate);
    this.budgets = requireNonNull(budgets, "budgets is null");
    this.tenant = requireNonNull(tenant, "tenant is null");
    this.result = result;
  }

  /**
   * {@code listener} metered when any budget is set, else itself; {@code result}: the batches are a
   * statement's result (charged to the result budget too), not a finished durable part.
   */
  static ServerStreamListener of(
      ServerStreamListener listener, TenantBudgets budgets, String tenant, boolean result) {
    return budgets.enabled() ? new BudgetedListener(listener, budgets, tenant, result) : listener;
  }

  @Override
  void batch(int rows, long bytes) {
    budgets.chargeBatch(tenant, bytes, result);
  }
}
