package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** Alarms on what an operator must act on, each notifying the alarm topic, and the dashboard. */
class MonitoringTest {
  private final Template template = Synthesized.get().template;

  @Test
  void alarms_watchDeadLettersWorkerErrorsThrottlesAndFrontDoorErrors() {
    alarm("ApproximateNumberOfMessagesVisible", "AWS/SQS", 1);
    alarm("Errors", "AWS/Lambda", 1);
    alarm("Throttles", "AWS/Lambda", 1);
    alarm(LakeMonitoring.FRONT_DOOR_SERVER_ERRORS, LakeMonitoring.NAMESPACE, 5);
    alarm("UnHealthyHostCount", "AWS/NetworkELB", 1);
    alarm("ApproximateAgeOfOldestMessage", "AWS/SQS", 900);
    alarm("FrontDoorPlanningMillis", LakeMonitoring.NAMESPACE, LakeMonitoring.SLOW_PLANNING_MILLIS);
    assertThat(template.findResources("AWS::CloudWatch::Alarm").values())
        .hasSize(7)
        .allSatisfy(a -> assertThat(a.get("Properties").toString()).contains("AlarmActions"));
  }

  @Test
  void frontDoorErrors_areCountedFromServerErrorAuditLines() {
    template.hasResourceProperties(
        "AWS::Logs::MetricFilter",
        Map.of(
            "FilterPattern", "{ ($.kind = \"audit\") && ($.outcome = \"server_error\") }",
            "LogGroupName", Match.anyValue(),
            "MetricTransformations",
                java.util.List.of(
                    Map.of(
                        "MetricName",
                        LakeMonitoring.FRONT_DOOR_SERVER_ERRORS,
                        "MetricNamespace",
                        LakeMonitoring.NAMESPACE,
                        "MetricValue",
                        "1",
                        "DefaultValue",
                        0))));
  }

  @Test
  void frontDoorQueryMetrics_areExtractedFromTheAuditFieldsTheCodeWrites() {
    // the audit fields (AuditLog) each metric filter reads, only on lines that carry them
    assertThat(LakeMonitoring.FRONT_DOOR_QUERY_METRICS.values())
        .containsExactlyInAnyOrder(
            "$.planningMs",
            "$.firstBatchMs",
            "$.downloadMs",
            "$.accounting.scannedBytes",
            "$.bytes");
    LakeMonitoring.FRONT_DOOR_QUERY_METRICS.forEach(
        (name, field) ->
            template.hasResourceProperties(
                "AWS::Logs::MetricFilter",
                Map.of(
                    "FilterPattern",
                    "{ ($.kind = \"audit\") && (" + field + " >= 0) }",
                    "LogGroupName",
                    Match.anyValue(),
                    "MetricTransformations",
                    java.util.List.of(
                        Map.of(
                            "MetricName", name,
                            "MetricNamespace", LakeMonitoring.NAMESPACE,
                            "MetricValue", field)))));
  }

  @Test
  void dashboard_showsWorkerAndFrontDoorPhasesAndAccounting() {
    Map<String, Map<String, Object>> dashboards =
        template.findResources("AWS::CloudWatch::Dashboard");
    assertThat(dashboards).hasSize(1);
    String body = dashboards.values().iterator().next().toString();
    for (String metric : LakeMonitoring.WORKER_TIMINGS) {
      assertThat(body).contains(metric);
    }
    for (String metric : LakeMonitoring.WORKER_BYTES) {
      assertThat(body).contains(metric);
    }
    for (String metric : LakeMonitoring.FRONT_DOOR_QUERY_METRICS.keySet()) {
      assertThat(body).contains(metric);
    }
  }

  private void alarm(String metric, String namespace, double threshold) {
    template.hasResourceProperties(
        "AWS::CloudWatch::Alarm",
        Match.objectLike(
            Map.of(
                "MetricName", metric,
                "Namespace", namespace,
                "Threshold", threshold,
                "ComparisonOperator", "GreaterThanOrEqualToThreshold",
                "AlarmActions", Match.anyValue())));
  }
}
