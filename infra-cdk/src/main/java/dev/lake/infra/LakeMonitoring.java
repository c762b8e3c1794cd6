package dev.lake.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.logs.FilterPattern;
import software.amazon.awscdk.services.logs.MetricFilter;
import software.amazon.awscdk.services.sns.Topic;
import software.constructs.Construct;

/**
 * Alarms (to one SNS topic) and a dashboard. The front door's server-side errors, query phase
 * timings and accounting are extracted from its audit lines ({@code "kind":"audit"}) by metric
 * filters (its Prometheus endpoint serves the same figures to a scraper in the VPC); the worker's
 * phase timings and accounting arrive as CloudWatch embedded-metric-format lines in namespace
 * {@link #NAMESPACE}. The metric and field names here are the ones the code writes.
 */
final class LakeMonitoring extends Construct {
  /** The namespace of lake's own metrics (worker EMF lines and the audit metric filter). */
  static final String NAMESPACE = "lake";

  /**
   * The worker's EMF timings (milliseconds, dimension {@code Service=worker}) as {@code EmfMetrics}
   * writes them: queue wait (SQS sent to processing), planning, execution, upload of result parts,
   * and the whole delivery.
   */
  static final List<String> WORKER_TIMINGS =
      List.of(
          "QueueWaitMillis",
          "PlanningMillis",
          "ExecutionMillis",
          "UploadMillis",
          "ProcessingMillis");

  /** The worker's EMF accounting (bytes, dimensions {@code Service} and {@code Service,Tenant}). */
  static final List<String> WORKER_BYTES =
      List.of("ScannedBytes", "ResultBytes", "MemoryPeakBytes", "SpillBytes");

  /**
   * Front-door metrics extracted from audit lines: metric name → the audit field holding its value
   * (milliseconds or bytes). Lines without the field (calls that ran no query) are not counted.
   */
  static final Map<String, String> FRONT_DOOR_QUERY_METRICS =
      new java.util.LinkedHashMap<>(
          Map.of(
              "FrontDoorPlanningMillis", "$.planningMs",
              "FrontDoorExecutionMillis", "$.firstBatchMs",
              "FrontDoorDownloadMillis", "$.downloadMs",
              "FrontDoorScannedBytes", "$.accounting.scannedBytes",
              "FrontDoorEgressBytes", "$.bytes"));

  /** Average planning time (ms, 3 × 5 min) that raises {@code FrontDoorSlowPlanning}. */
  static final double SLOW_PLANNING_MILLIS = 2000;

  static final String FRONT_DOOR_SERVER_ERRORS = "FrontDoorServerErrors";

  final Topic topic;
  final List<Alarm> alarms = new ArrayList<>();
  final Dashboard dashboard;

  LakeMonitoring(
      Construct scope,
      String id,
      LakeData data,
      FrontDoorService frontDoor,
      WorkerFunction worker) {
    super(scope, id);
    topic =
        Topic.Builder.create(this, "Alarms")
            .displayName("lake alarms")
            .masterKey(data.storageKey)
            .enforceSsl(true)
            .build();
    // CloudWatch publishes to the encrypted topic with the storage key
    data.storageKey.grant(
        new ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt", "kms:GenerateDataKey*");
    MetricFilter.Builder.create(this, "FrontDoorServerErrorsFilter")
        .logGroup(frontDoor.logs)
        .metricNamespace(NAMESPACE)
        .metricName(FRONT_DOOR_SERVER_ERRORS)
        .filterPattern(
            FilterPattern.all(
                FilterPattern.stringValue("$.kind", "=", "audit"),
                FilterPattern.stringValue("$.outcome", "=", "server_error")))
        .metricValue("1")
        .defaultValue(0)
        .build();
    Metric serverErrors = lake(FRONT_DOOR_SERVER_ERRORS, Map.of(), "Sum");
    FRONT_DOOR_QUERY_METRICS.forEach(
        (name, field) ->
            MetricFilter.Builder.create(this, name + "Filter")
                .logGroup(frontDoor.logs)
                .metricNamespace(NAMESPACE)
                .metricName(name)
                .filterPattern(
                    FilterPattern.all(
                        FilterPattern.stringValue("$.kind", "=", "audit"),
                        FilterPattern.numberValue(field, ">=", 0)))
                .metricValue(field)
                .build());
    IMetric dlqDepth =
        data.deadLetters.metricApproximateNumberOfMessagesVisible(
            MetricOptions.builder().period(Duration.minutes(1)).statistic("Maximum").build());
    IMetric oldestJob =
        data.queue.metricApproximateAgeOfOldestMessage(
            MetricOptions.builder().period(Duration.minutes(1)).statistic("Maximum").build());
    IMetric workerErrors = worker.function.metricErrors(fiveMinuteSum());
    IMetric workerThrottles = worker.function.metricThrottles(fiveMinuteSum());
    IMetric unhealthy =
        frontDoor
            .targets
            .getMetrics()
            .unHealthyHostCount(
                MetricOptions.builder().period(Duration.minutes(1)).statistic("Maximum").build());
    alarm("DeadLetters", dlqDepth, 1, 1, "job messages reached the dead-letter queue");
    alarm("WorkerErrors", workerErrors, 1, 1, "the worker function failed invocations");
    alarm("WorkerThrottles", workerThrottles, 1, 1, "the worker function was throttled");
    alarm("FrontDoorErrors", serverErrors, 5, 1, "the front door answered with server errors");
    alarm("FrontDoorUnhealthy", unhealthy, 1, 3, "front-door tasks fail the load balancer's check");
    alarm("JobQueueAge", oldestJob, 900, 5, "jobs wait in the queue for more than 15 minutes");
    alarm(
        "FrontDoorSlowPlanning",
        lake("FrontDoorPlanningMillis", Map.of(), "Average"),
        SLOW_PLANNING_MILLIS,
        3,
        "planning (admission, grants, snapshot resolution) averages 2 s or more");

    dashboard = Dashboard.Builder.create(this, "Dashboard").build();
    dashboard.addWidgets(
        graph(
            "Jobs queued / dead letters",
            List.of(data.queue.metricApproximateNumberOfMessagesVisible(), dlqDepth)),
        graph("Oldest queued job (s)", List.of(oldestJob)),
        graph(
            "Worker invocations, errors, throttles",
            List.of(
                worker.function.metricInvocations(fiveMinuteSum()),
                workerErrors,
                workerThrottles)));
    List<IMetric> timings = new ArrayList<>();
    for (String name : WORKER_TIMINGS) {
      timings.add(lake(name, Map.of("Service", "worker"), "p50"));
      timings.add(lake(name, Map.of("Service", "worker"), "p99"));
    }
    List<IMetric> bytes = new ArrayList<>();
    for (String name : WORKER_BYTES) {
      bytes.add(lake(name, Map.of("Service", "worker"), "Sum"));
    }
    List<IMetric> frontDoorTimes = new ArrayList<>();
    for (String name :
        List.of("FrontDoorPlanningMillis", "FrontDoorExecutionMillis", "FrontDoorDownloadMillis")) {
      frontDoorTimes.add(lake(name, Map.of(), "p50"));
      frontDoorTimes.add(lake(name, Map.of(), "p99"));
    }
    dashboard.addWidgets(
        graph("Worker phases p50/p99 (ms)", timings),
        graph("Worker bytes scanned / produced / memory peak / spilled", bytes),
        graph("Worker duration (ms)", List.of(worker.function.metricDuration())));
    dashboard.addWidgets(
        graph("Front door planning / first batch / download p50/p99 (ms)", frontDoorTimes),
        graph(
            "Front door bytes scanned / streamed to clients",
            List.of(
                lake("FrontDoorScannedBytes", Map.of(), "Sum"),
                lake("FrontDoorEgressBytes", Map.of(), "Sum"))),
        graph("Front door server errors / unhealthy tasks", List.of(serverErrors, unhealthy)));
    dashboard.addWidgets(
        graph(
            "Front door CPU / memory (%)",
            List.of(
                frontDoor.service.metricCpuUtilization(),
                frontDoor.service.metricMemoryUtilization())),
        graph(
            "Load balancer active flows",
            List.of(frontDoor.loadBalancer.getMetrics().activeFlowCount())),
        graph(
            "Load balancer TLS handshake errors and resets",
            List.of(
                frontDoor.loadBalancer.getMetrics().custom("ClientTLSNegotiationErrorCount"),
                frontDoor.loadBalancer.getMetrics().tcpTargetResetCount())));
  }

  private void alarm(String id, IMetric metric, double threshold, int periods, String what) {
    Alarm alarm =
        Alarm.Builder.create(this, id)
            .alarmDescription("lake: " + what + " (docs/operations.md#alarms)")
            .metric(metric)
            .threshold(threshold)
            .evaluationPeriods(periods)
            .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
            .treatMissingData(TreatMissingData.NOT_BREACHING)
            .build();
    alarm.addAlarmAction(new SnsAction(topic));
    alarms.add(alarm);
  }

  private static Metric lake(String name, Map<String, String> dimensions, String statistic) {
    return Metric.Builder.create()
        .namespace(NAMESPACE)
        .metricName(name)
        .dimensionsMap(dimensions)
        .statistic(statistic)
        .period(Duration.minutes(5))
        .build();
  }

  private static MetricOptions fiveMinuteSum() {
    return MetricOptions.builder().period(Duration.minutes(5)).statistic("Sum").build();
  }

  private static GraphWidget graph(String title, List<IMetric> metrics) {
    return GraphWidget.Builder.create().title(title).left(metrics).width(8).build();
  }
}
