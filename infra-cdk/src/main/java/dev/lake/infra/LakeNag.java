package dev.lake.infra;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.github.cdklabs.cdknag.NagPackProps;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import io.github.cdklabs.cdknag.RegexAppliesTo;
import java.util.List;
import software.amazon.awscdk.Aspects;
import software.constructs.IConstruct;

/**
 * cdk-nag's AwsSolutions pack, and the suppressions of findings that grants cannot avoid, each with
 * its reason. Suppressions name the exact wildcard (appliesTo), so a new wildcard fails the check.
 */
final class LakeNag {
  private LakeNag() {}

  /** Runs the AwsSolutions checks on {@code scope} at synthesis (findings become errors). */
  static void check(IConstruct scope) {
    Aspects.of(scope).add(new AwsSolutionsChecks(NagPackProps.builder().verbose(true).build()));
  }

  /**
   * The wildcards CDK's grant methods write for the result bucket: {@code grantRead}/{@code
   * grantReadWrite} expand to object-level action families, scoped to {@code results/*} or {@code
   * ticket-keys/*} of lake's own bucket, plus the storage key's data-key actions.
   */
  static void suppressBucketGrantWildcards(IConstruct role) {
    suppress(
        role,
        "AwsSolutions-IAM5",
        "Object-level S3 actions of CDK grants (GetObject*, GetBucket*, List*, and for writers"
            + " DeleteObject*, Abort*) on one key prefix of lake's own result bucket; the storage"
            + " key's GenerateDataKey*/ReEncrypt* come with the bucket's KMS encryption.",
        List.of(
            "Action::s3:GetObject*",
            "Action::s3:GetBucket*",
            "Action::s3:List*",
            "Action::s3:DeleteObject*",
            "Action::s3:Abort*",
            "Action::kms:GenerateDataKey*",
            "Action::kms:ReEncrypt*",
            RegexAppliesTo.builder()
                .regex("/^Resource::<DataResults[0-9A-F]+\\.Arn>\\/(results|ticket-keys)\\/\\*$/g")
                .build()));
  }

  /** ECS's task execution role: {@code ecr:GetAuthorizationToken} only exists on "*". */
  static void suppressExecutionRole(IConstruct role) {
    suppress(
        role,
        "AwsSolutions-IAM5",
        "ecr:GetAuthorizationToken has no resource-level permissions; every other statement of the"
            + " execution role names its repository, log group and secret.",
        List.of("Resource::*"));
  }

  /** The Lambda service role's managed policy: CloudWatch Logs writes only. */
  static void suppressLambdaBasicExecution(IConstruct role) {
    suppress(
        role,
        "AwsSolutions-IAM4",
        "AWSLambdaBasicExecutionRole grants only CreateLogGroup, CreateLogStream and PutLogEvents,"
            + " which every Lambda needs for its logs and EMF metrics.",
        List.of(
            "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"));
  }

  private static void suppress(
      IConstruct construct, String id, String reason, List<Object> appliesTo) {
    NagSuppressions.addResourceSuppressions(
        construct,
        List.of(NagPackSuppression.builder().id(id).reason(reason).appliesTo(appliesTo).build()),
        true);
  }
}
