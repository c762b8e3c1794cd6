package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.services.iam.IRole;

/**
 * The IAM policies the grants produce, per role: what each side may do, and what it must not (the
 * worker reads no principals; the front door writes no result parts).
 */
class LeastPrivilegeTest {
  private final Synthesized synthesized = Synthesized.get();
  private final LakeStack stack = synthesized.stack;

  @Test
  void worker_cannotReadThePrincipalsSecret() {
    String secret = LakeStackTest.idOf(stack.data.principals);
    assertThat(statementsOf(stack.worker.function.getRole()))
        .isNotEmpty()
        .noneSatisfy(s -> assertThat(s.toString()).contains(secret))
        .noneSatisfy(s -> assertThat(s.toString()).contains("secretsmanager"));
  }

  @Test
  void frontDoorTaskRole_readsThePrincipalsSecretOnly_toPollItsVersion() {
    // serve polls the principals secret itself (rotation without a redeploy): the task role may
    // read that one secret, and no other secretsmanager action or secret
    String secret = LakeStackTest.idOf(stack.data.principals);
    assertThat(statementsOf(stack.frontDoor.task.getTaskRole()))
        .filteredOn(s -> actions(s).stream().anyMatch(a -> a.startsWith("secretsmanager:")))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(actions(s))
                  .containsExactlyInAnyOrder(
                      "secretsmanager:GetSecretValue", "secretsmanager:DescribeSecret");
              assertThat(s.get("Resource").toString()).contains(secret);
            });
  }

  @Test
  void frontDoor_cannotWriteResultParts() {
    assertThat(statementsOf(stack.frontDoor.task.getTaskRole()))
        .filteredOn(s -> actions(s).stream().anyMatch(a -> a.startsWith("s3:Put")))
        .isNotEmpty() // it writes the shared ticket-key ring ...
        .allSatisfy(
            s -> {
              // ... and nothing else
              assertThat(s.get("Resource").toString()).contains("/ticket-keys/*");
              assertThat(s.get("Resource").toString()).doesNotContain("/results/*");
            });
  }

  @Test
  void frontDoor_readsResultPartsSubmitsJobsAndUsesTheTicketKey() {
    List<Map<String, Object>> statements = statementsOf(stack.frontDoor.task.getTaskRole());
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(actions(s)).contains("s3:GetObject*");
              assertThat(s.get("Resource").toString()).contains("/results/*");
            })
        .anySatisfy(s -> assertThat(actions(s)).contains("sqs:SendMessage"))
        .anySatisfy(
            s -> {
              assertThat(actions(s)).contains("dynamodb:PutItem", "dynamodb:UpdateItem");
              assertThat(s.toString()).contains(LakeStackTest.idOf(stack.data.jobs));
            })
        .anySatisfy(
            s -> {
              assertThat(actions(s))
                  .containsExactlyInAnyOrder("kms:GenerateDataKey", "kms:Decrypt");
              assertThat(s.toString()).contains(LakeStackTest.idOf(stack.data.ticketKey));
            });
    assertThat(statements)
        .noneSatisfy(s -> assertThat(actions(s)).contains("sqs:ReceiveMessage"))
        .noneSatisfy(
            s -> {
              // the registry is written by operators (bin/lake table register), not by replicas
              assertThat(s.toString()).contains(LakeStackTest.idOf(stack.data.registry));
              assertThat(actions(s)).contains("dynamodb:PutItem");
            });
  }

  @Test
  void worker_writesResultPartsConsumesTheQueueAndUsesTheTicketKey() {
    List<Map<String, Object>> statements = statementsOf(stack.worker.function.getRole());
    assertThat(statements)
        .anySatisfy(
            s -> {
              assertThat(actions(s)).contains("s3:PutObject");
              assertThat(s.get("Resource").toString()).contains("/results/*");
            })
        .anySatisfy(s -> assertThat(actions(s)).contains("sqs:ReceiveMessage", "sqs:DeleteMessage"))
        .anySatisfy(
            s ->
                assertThat(actions(s))
                    .containsExactlyInAnyOrder("kms:GenerateDataKey", "kms:Decrypt"))
        .noneSatisfy(s -> assertThat(actions(s)).contains("sqs:SendMessage"));
  }

  @Test
  void roles_haveNoInlineAdminOrServiceWideWildcard() {
    for (Map<String, Object> s : allStatements()) {
      assertThat(actions(s)).doesNotContain("*", "s3:*", "dynamodb:*", "kms:*", "sqs:*");
    }
  }

  private List<Map<String, Object>> statementsOf(IRole role) {
    String roleId = LakeStackTest.idOf(role);
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> policy :
        synthesized.template.findResources("AWS::IAM::Policy").values()) {
      Map<?, ?> props = (Map<?, ?>) policy.get("Properties");
      if (props.get("Roles").toString().contains("Ref=" + roleId + "}")) {
        out.addAll(statements(props));
      }
    }
    return out;
  }

  private List<Map<String, Object>> allStatements() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map<String, Object> policy :
        synthesized.template.findResources("AWS::IAM::Policy").values()) {
      out.addAll(statements((Map<?, ?>) policy.get("Properties")));
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> statements(Map<?, ?> properties) {
    Map<?, ?> document = (Map<?, ?>) properties.get("PolicyDocument");
    return (List<Map<String, Object>>) document.get("Statement");
  }

  private static List<String> actions(Map<String, Object> statement) {
    Object a = statement.get("Action");
    if (a instanceof List<?> list) {
      return list.stream().map(Object::toString).toList();
    }
    return List.of(String.valueOf(a));
  }
}
