package dev.lake.app;

import dev.lake.core.job.ResultLayout;
import dev.lake.durable.DurableTierConfig;
import dev.lake.durable.WorkerConfig;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code --durable} flags of {@code serve}: the durable result tier is off unless {@code
 * --durable aws}; the AWS resources it uses are lake-runtime's {@code AwsOptions}, shared with the
 * worker.
 */
final class DurableOptions {
  enum Mode {
    off,
    aws
  }

  @Option(
      names = "--durable",
      defaultValue = "off",
      description = "Durable result tier (PollFlightInfo, part downloads): off or aws.")
  Mode mode;

  @Option(
      names = "--durable-workers",
      defaultValue = "0",
      description = "In-process workers polling the job queue (0: Lambda or bin/lake worker).")
  int workers;

  @Mixin DurableLimitOptions limits;

  boolean aws() {
    return mode == Mode.aws;
  }

  /**
   * The tier's settings: results where {@code layout} says (the deployment's one {@code
   * --result-prefix}), in-process workers with {@code worker}'s settings, {@code
   * --durable-workers}, {@code --durable-max-queued-per-tenant}.
   */
  DurableTierConfig config(WorkerConfig worker, ResultLayout layout) {
    return limits.apply(
        DurableTierConfig.defaults().withLayout(layout).withWorker(worker).withWorkers(workers));
  }
}
