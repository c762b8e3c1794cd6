package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** The resources of the stack and the settings that matter, read from the synthesized template. */
class LakeStackTest {
  private final Synthesized synthesized = Synthesized.get();
  private final Template template = synthesized.template;

  @Test
  void frontDoor_isFargateServiceInPrivateSubnetsWithRollback() {
    template.hasResourceProperties(
        "AWS::ECS::Service",
        Map.of(
            "LaunchType",
            "FARGATE",
            "DesiredCount",
            2,
            "DeploymentConfiguration",
            Match.objectLike(
                Map.of(
                    "DeploymentCircuitBreaker",
                    Map.of("Enable", true, "Rollback", true),
                    "MinimumHealthyPercent",
                    100)),
            "NetworkConfiguration",
            Map.of("AwsvpcConfiguration", Match.objectLike(Map.of("AssignPublicIp", "DISABLED")))));
    template.hasResourceProperties(
        "AWS::ECS::Cluster",
        Map.of(
            "ClusterSettings", List.of(Map.of("Name", "containerInsights", "Value", "enabled"))));
  }

  @Test
  void loadBalancer_terminatesTlsWithHttp2OnlyAndTheCertificateParameter_thenTlsToTheTask() {
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::Listener",
        Map.of(
            "Protocol",
            "TLS",
            "Port",
            443,
            "AlpnPolicy",
            List.of("HTTP2Only"),
            "Certificates",
            List.of(Map.of("CertificateArn", Map.of("Ref", "CertificateArn")))));
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::TargetGroup",
        Match.objectLike(
            Map.of(
                "Protocol", "TLS",
                "Port", 31337,
                "TargetType", "ip",
                "HealthCheckProtocol", "TCP",
                "HealthyThresholdCount", 2)));
    template.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::LoadBalancer",
        Match.objectLike(
            Map.of(
                "Type", "network",
                "Scheme", "internet-facing",
                "LoadBalancerAttributes",
                    Match.arrayWith(
                        List.of(Map.of("Key", "access_logs.s3.enabled", "Value", "true"))))));
  }

  @Test
  void frontDoor_scalesOnCpuAndMemoryBetweenMinAndMax() {
    template.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalableTarget",
        Map.of(
            "MinCapacity", 2, "MaxCapacity", 10, "ScalableDimension", "ecs:service:DesiredCount"));
    template.hasResourceProperties(
        "AWS::ApplicationAutoScaling::ScalingPolicy",
        Map.of(
            "TargetTrackingScalingPolicyConfiguration",
            Match.objectLike(
                Map.of(
                    "TargetValue",
                    60,
                    "PredefinedMetricSpecification",
                    Map.of("PredefinedMetricType", "ECSServiceAverageCPUUtilization")))));
  }

  @Test
  void frontDoorContainer_getsResourceNamesAsLakeVariables_andReadsThePrincipalsSecretItself() {
    template.hasResourceProperties(
        "AWS::ECS::TaskDefinition",
        Map.of(
            "ContainerDefinitions",
            List.of(
                Match.objectLike(
                    Map.of(
                        "Environment",
                        Match.arrayWith(
                            // in name order, as the task definition lists them
                            List.of(
                                env("LAKE_DURABLE", "aws"),
                                // an eighth of the 8 GiB task in 4 engine processes, each
                                // capped at an eighth
                                env("LAKE_ENGINE_MEMORY_MB", "1024"),
                                env("LAKE_ENGINE_MEMORY_POOLS", "4"),
                                env("LAKE_ENGINE_PROCESS_CEILING_MB", "1024"),
                                env("LAKE_HOST", "0.0.0.0"),
                                Match.objectLike(Map.of("Name", "LAKE_JOB_QUEUE_URL")),
                                Match.objectLike(Map.of("Name", "LAKE_JOB_TABLE")),
                                Match.objectLike(Map.of("Name", "LAKE_KMS_KEY_ID")),
                                env("LAKE_PORT", "31337"),
                                // serve polls the secret's version itself (rotation, no deploy)
                                Map.of(
                                    "Name",
                                    "LAKE_PRINCIPALS_SECRET",
                                    "Value",
                                    Map.of("Ref", logicalId(synthesized.stack.data.principals))),
                                Match.objectLike(Map.of("Name", "LAKE_REGISTRY_TABLE")),
                                Match.objectLike(Map.of("Name", "LAKE_RESULT_BUCKET")))))))));
    assertThat(template.findResources("AWS::ECS::TaskDefinition").toString())
        .doesNotContain("LAKE_PRINCIPALS_JSON");
    // AND the task role (not only the execution role) may read that secret
    template.hasResourceProperties(
        "AWS::IAM::Policy",
        Match.objectLike(
            Map.of(
                "PolicyDocument",
                Match.objectLike(
                    Map.of(
                        "Statement",
                        Match.arrayWith(
                            List.of(
                                Match.objectLike(
                                    Map.of(
                                        "Action",
                                        List.of(
                                            "secretsmanager:GetSecretValue",
                                            "secretsmanager:DescribeSecret"),
                                        "Resource",
                                        Map.of(
                                            "Ref",
                                            logicalId(synthesized.stack.data.principals)))))))),
                "Roles",
                List.of(
                    Map.of("Ref", logicalId(synthesized.stack.frontDoor.task.getTaskRole()))))));
  }

  @Test
  void worker_isImageFunctionWithTimeoutAboveItsDeadlineAndReservedConcurrency() {
    template.hasResourceProperties(
        "AWS::Lambda::Function",
        Match.objectLike(
            Map.of(
                "PackageType", "Image",
                "Timeout", 900,
                "MemorySize", 4096,
                "ReservedConcurrentExecutions", 20,
                "Environment",
                    Map.of(
                        "Variables",
                        Match.objectLike(
                            Map.of(
                                "LAKE_ENGINE_MEMORY_MB", "1024",
                                "LAKE_ENGINE_MEMORY_POOLS", "1",
                                "LAKE_ENGINE_PROCESS_CEILING_MB", "2048",
                                "LAKE_WORKER_MAX_EXECUTION_SECONDS", "840",
                                "LAKE_WORKER_LAMBDA_MARGIN_SECONDS", "20",
                                "LAKE_WORKER_MAX_FAN_OUT", "8"))))));
    template.hasResourceProperties(
        "AWS::Lambda::EventSourceMapping",
        Map.of(
            "BatchSize", 1,
            "FunctionResponseTypes", List.of("ReportBatchItemFailures"),
            "ScalingConfig", Map.of("MaximumConcurrency", 10),
            "EventSourceArn", Match.anyValue(),
            "FunctionName", Match.anyValue()));
  }

  @Test
  void worker_environmentNamesNoPrincipals() {
    Map<String, Map<String, Object>> functions = template.findResources("AWS::Lambda::Function");
    assertThat(functions.values().toString()).doesNotContain("PRINCIPALS");
  }

  @Test
  void tables_areOnDemandWithPitrAndTheJobTableExpires() {
    template.resourceCountIs("AWS::DynamoDB::Table", 2);
    template.hasResourceProperties(
        "AWS::DynamoDB::Table",
        Match.objectLike(
            Map.of(
                "KeySchema", List.of(Map.of("AttributeName", "id", "KeyType", "HASH")),
                "BillingMode", "PAY_PER_REQUEST",
                "TimeToLiveSpecification", Map.of("AttributeName", "ttl", "Enabled", true),
                "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true),
                "SSESpecification", Match.objectLike(Map.of("SSEEnabled", true)))));
    template.hasResourceProperties(
        "AWS::DynamoDB::Table",
        Match.objectLike(
            Map.of(
                "KeySchema", List.of(Map.of("AttributeName", "name", "KeyType", "HASH")),
                "BillingMode", "PAY_PER_REQUEST",
                "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true))));
  }

  @Test
  void jobQueue_redrivesToDeadLetterQueueAndOutlivesTheFunctionTimeout() {
    template.resourceCountIs("AWS::SQS::Queue", 2);
    template.hasResourceProperties(
        "AWS::SQS::Queue",
        Match.objectLike(
            Map.of(
                "VisibilityTimeout", 960,
                "KmsMasterKeyId", Match.anyValue(),
                "RedrivePolicy",
                    Map.of(
                        "maxReceiveCount",
                        10,
                        "deadLetterTargetArn",
                        Match.objectLike(Map.of("Fn::GetAtt", Match.anyValue()))))));
    template.hasResourceProperties(
        "AWS::SQS::QueuePolicy",
        Map.of(
            "PolicyDocument",
            Map.of("Statement", denyWithoutTls(), "Version", "2012-10-17"),
            "Queues",
            Match.anyValue()));
  }

  @Test
  void resultBucket_isKmsEncryptedPrivateTlsOnlyAndExpiresResults() {
    template.hasResourceProperties(
        "AWS::S3::Bucket",
        Match.objectLike(
            Map.of(
                "BucketEncryption",
                    Map.of(
                        "ServerSideEncryptionConfiguration",
                        List.of(
                            Match.objectLike(
                                Map.of(
                                    "ServerSideEncryptionByDefault",
                                    Match.objectLike(Map.of("SSEAlgorithm", "aws:kms")))))),
                "PublicAccessBlockConfiguration",
                    Map.of(
                        "BlockPublicAcls", true,
                        "BlockPublicPolicy", true,
                        "IgnorePublicAcls", true,
                        "RestrictPublicBuckets", true),
                "LifecycleConfiguration",
                    Map.of(
                        "Rules",
                        List.of(
                            Map.of(
                                "Id", "ExpireResults",
                                "Prefix", "results/",
                                "ExpirationInDays", 2,
                                "Status", "Enabled"),
                            Map.of(
                                "Id", "AbortIncompleteUploads",
                                "AbortIncompleteMultipartUpload", Map.of("DaysAfterInitiation", 1),
                                "Status", "Enabled"))),
                "LoggingConfiguration",
                    Match.objectLike(Map.of("LogFilePrefix", "results-bucket/")))));
    template.hasResourceProperties(
        "AWS::S3::BucketPolicy",
        Match.objectLike(
            Map.of(
                "Bucket", Map.of("Ref", logicalId(synthesized.stack.data.results)),
                "PolicyDocument", Match.objectLike(Map.of("Statement", denyWithoutTls())))));
  }

  @Test
  void keys_rotate() {
    template.resourceCountIs("AWS::KMS::Key", 2);
    assertThat(template.findResources("AWS::KMS::Key").values())
        .allSatisfy(
            key -> assertThat(key.get("Properties").toString()).contains("EnableKeyRotation=true"));
  }

  @Test
  void principalsSecret_existsAndIsRetained() {
    template.hasResource(
        "AWS::SecretsManager::Secret",
        Match.objectLike(Map.of("DeletionPolicy", "Retain", "UpdateReplacePolicy", "Retain")));
  }

  @Test
  void vpc_hasFlowLogsAndGatewayEndpoints() {
    template.resourceCountIs("AWS::EC2::FlowLog", 1);
    template.resourceCountIs("AWS::EC2::VPCEndpoint", 2);
    template.hasResourceProperties(
        "AWS::EC2::VPC", Match.objectLike(Map.of("CidrBlock", "10.40.0.0/16")));
  }

  /** The statement {@code enforceSSL} adds: deny any request made without TLS. */
  private static software.amazon.awscdk.assertions.Matcher denyWithoutTls() {
    return Match.arrayWith(
        List.of(
            Match.objectLike(
                Map.of(
                    "Effect",
                    "Deny",
                    "Condition",
                    Map.of("Bool", Map.of("aws:SecureTransport", "false"))))));
  }

  static Map<String, String> env(String name, String value) {
    return Map.of("Name", name, "Value", value);
  }

  static String logicalId(software.constructs.IConstruct construct) {
    return LakeStackTest.idOf(construct);
  }

  static String idOf(software.constructs.IConstruct construct) {
    var stack = software.amazon.awscdk.Stack.of(construct);
    return stack.getLogicalId(
        (software.amazon.awscdk.CfnElement) construct.getNode().getDefaultChild());
  }
}
