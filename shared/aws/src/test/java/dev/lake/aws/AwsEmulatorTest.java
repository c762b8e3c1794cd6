package dev.lake.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AwsEmulatorTest {
  @Test
  void serializingSiteDirectory_holdsTheSitecustomizeThatLocksMotosDynamoDb() throws Exception {
    // WHEN the directory for moto's PYTHONPATH is prepared
    Path dir = AwsEmulator.serializingSiteDirectory();
    // THEN it holds lake's sitecustomize, which wraps the DynamoDB backend's write calls in one
    // lock
    String site = Files.readString(dir.resolve("sitecustomize.py"));
    assertThat(site)
        .contains("from moto.dynamodb.models import DynamoDBBackend")
        .contains("\"transact_write_items\"")
        .contains("with _LOCK:");
  }

  @Test
  void startMoto_runsMotoWithDynamoDbCallsSerialized() throws Exception {
    // GIVEN a moto_server started the way tests and aws-local start it
    Path log = Files.createTempFile("moto-", ".log");
    try (AwsEmulator moto = AwsEmulator.startMoto(log)) {
      // THEN it answers, and its log shows lake's sitecustomize was loaded
      assertThat(moto.owned()).isTrue();
      assertThat(Files.readString(log)).contains("lake: moto DynamoDB calls serialized");
    }
  }
}
