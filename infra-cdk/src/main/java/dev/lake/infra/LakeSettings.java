package dev.lake.infra;

import java.util.Map;
import java.util.function.Function;

/**
 * The deployment's sizes and limits, validated once. Every value has a default and may be
 * overridden with CDK context ({@code cdk deploy -c lake:workerReservedConcurrency=40}).
 *
 * @param frontDoorMinTasks Fargate tasks kept running (default 2, 1 - 100): two spread over AZs
 * @param frontDoorMaxTasks autoscaling ceiling (default 10, min tasks - 200)
 * @param frontDoorCpu task CPU units (default 2048; 1024, 2048, 4096, 8192 or 16384)
 * @param frontDoorMemoryMiB task memory (default 8192, 2048 - 122880)
 * @param frontDoorPort the Flight port inside the task (default 31337)
 * @param metricsPort the Prometheus scrape port inside the task (default 9464)
 * @param workerMemoryMiB Lambda memory (default 4096, 1024 - 10240); CPU scales with it
 * @param workerTimeoutSeconds Lambda timeout (default 900, the maximum); must exceed the worker's
 *     absolute deadline {@code workerMaxExecutionSeconds + workerMarginSeconds}
 * @param workerMaxExecutionSeconds the worker's absolute execution deadline (default 840)
 * @param workerMarginSeconds time the handler keeps before the Lambda timeout (default 20)
 * @param workerReservedConcurrency concurrency reserved for the worker (default 20, 1 - 1000)
 * @param workerMaxConcurrency the SQS event source's maximum concurrency (default 10, 2 - 1000, at
 *     most the reserved concurrency so the source never causes throttles)
 * @param workerBatchSize jobs per invocation (default 1, 1 - 10): one job is up to minutes long
 * @param maxReceiveCount deliveries before a job message goes to the DLQ (default 10, 1 - 1000)
 * @param resultExpiryDays days before result parts expire (default 2, 1 - 365); longer than the job
 *     TTL (24 h) so a readable job never loses its parts
 * @param internetFacing whether the load balancer is internet-facing (default true)
 */
record LakeSettings(
    int frontDoorMinTasks,
    int frontDoorMaxTasks,
    int frontDoorCpu,
    int frontDoorMemoryMiB,
    int frontDoorPort,
    int metricsPort,
    int workerMemoryMiB,
    int workerTimeoutSeconds,
    int workerMaxExecutionSeconds,
    int workerMarginSeconds,
    int workerReservedConcurrency,
    int workerMaxConcurrency,
    int workerBatchSize,
    int maxReceiveCount,
    int resultExpiryDays,
    boolean internetFacing) {
  LakeSettings {
    check("frontDoorMinTasks", frontDoorMinTasks, 1, 100);
    check("frontDoorMaxTasks", frontDoorMaxTasks, frontDoorMinTasks, 200);
    if (!java.util.Set.of(1024, 2048, 4096, 8192, 16384).contains(frontDoorCpu)) {
      throw new IllegalArgumentException(
          "frontDoorCpu must be 1024, 2048, 4096, 8192 or 16384: " + frontDoorCpu);
    }
    check("frontDoorMemoryMiB", frontDoorMemoryMiB, 2048, 122880);
    check("frontDoorPort", frontDoorPort, 1024, 65535);
    check("metricsPort", metricsPort, 1024, 65535);
    if (metricsPort == frontDoorPort) {
      throw new IllegalArgumentException(
          "metricsPort must differ from frontDoorPort: " + metricsPort);
    }
    check("workerMemoryMiB", workerMemoryMiB, 1024, 10240);
    check("workerMaxExecutionSeconds", workerMaxExecutionSeconds, 1, 880);
    check("workerMarginSeconds", workerMarginSeconds, 1, 300);
    check(
        "workerTimeoutSeconds",
        workerTimeoutSeconds,
        workerMaxExecutionSeconds + workerMarginSeconds + 1,
        900);
    check("workerReservedConcurrency", workerReservedConcurrency, 1, 1000);
    check("workerMaxConcurrency", workerMaxConcurrency, 2, workerReservedConcurrency);
    check("workerBatchSize", workerBatchSize, 1, 10);
    check("maxReceiveCount", maxReceiveCount, 1, 1000);
    check("resultExpiryDays", resultExpiryDays, 1, 365);
  }

  static LakeSettings defaults() {
    return new LakeSettings(
        2, 10, 2048, 8192, 31337, 9464, 4096, 900, 840, 20, 20, 10, 1, 10, 2, true);
  }

  /**
   * The defaults overridden by context values named {@code lake:<component name>}; {@code context}
   * answers null for an unset key (as {@code Node.tryGetContext} does).
   */
  static LakeSettings fromContext(Function<String, Object> context) {
    LakeSettings d = defaults();
    Map<String, Integer> ints = new java.util.HashMap<>();
    for (var c : LakeSettings.class.getRecordComponents()) {
      if (c.getType() != int.class) {
        continue;
      }
      Object v = context.apply("lake:" + c.getName());
      if (v != null) {
        try {
          ints.put(c.getName(), Integer.parseInt(v.toString().trim()));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("lake:" + c.getName() + " is not a number: " + v);
        }
      }
    }
    Object facing = context.apply("lake:internetFacing");
    return new LakeSettings(
        ints.getOrDefault("frontDoorMinTasks", d.frontDoorMinTasks()),
        ints.getOrDefault("frontDoorMaxTasks", d.frontDoorMaxTasks()),
        ints.getOrDefault("frontDoorCpu", d.frontDoorCpu()),
        ints.getOrDefault("frontDoorMemoryMiB", d.frontDoorMemoryMiB()),
        ints.getOrDefault("frontDoorPort", d.frontDoorPort()),
        ints.getOrDefault("metricsPort", d.metricsPort()),
        ints.getOrDefault("workerMemoryMiB", d.workerMemoryMiB()),
        ints.getOrDefault("workerTimeoutSeconds", d.workerTimeoutSeconds()),
        ints.getOrDefault("workerMaxExecutionSeconds", d.workerMaxExecutionSeconds()),
        ints.getOrDefault("workerMarginSeconds", d.workerMarginSeconds()),
        ints.getOrDefault("workerReservedConcurrency", d.workerReservedConcurrency()),
        ints.getOrDefault("workerMaxConcurrency", d.workerMaxConcurrency()),
        ints.getOrDefault("workerBatchSize", d.workerBatchSize()),
        ints.getOrDefault("maxReceiveCount", d.maxReceiveCount()),
        ints.getOrDefault("resultExpiryDays", d.resultExpiryDays()),
        facing == null ? d.internetFacing() : Boolean.parseBoolean(facing.toString().trim()));
  }

  private static void check(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be between " + min + " and " + max + ": " + value);
    }
  }
}
