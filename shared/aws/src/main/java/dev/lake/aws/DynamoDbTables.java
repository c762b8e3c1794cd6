package dev.lake.aws;

import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Creating lake's DynamoDB tables for emulators and development accounts (CDK owns production). */
final class DynamoDbTables {
  private DynamoDbTables() {}

  /** An on-demand table with one string partition key {@code key}, once it is ACTIVE. */
  static void create(DynamoDbClient dynamo, String table, String key) {
    dynamo.createTable(
        b ->
            b.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(
                    KeySchemaElement.builder().attributeName(key).keyType(KeyType.HASH).build())
                .attributeDefinitions(
                    AttributeDefinition.builder()
                        .attributeName(key)
                        .attributeType(ScalarAttributeType.S)
                        .build()));
    // poll briefly instead of the SDK waiter, whose 20 s back-off dominates against emulators
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (dynamo.describeTable(b -> b.tableName(table)).table().tableStatus()
        != TableStatus.ACTIVE) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("table " + table + " did not become active");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while creating " + table, e);
      }
    }
  }
}
