package dev.lake.iceberg.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import dev.lake.iceberg.IcebergConfig;
import dev.lake.iceberg.IcebergFederation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A REST catalog that requires OAuth2 client credentials; the secret never leaks. */
class OAuth2Test {
  static final String SECRET = "top-s3cr3t-value-7731";
  static final String CREDENTIAL = "lake-client:" + SECRET;

  @TempDir static Path dir;
  static RestCatalogFixture fixture;
  static BufferAllocator allocator;

  @BeforeAll
  static void start() throws Exception {
    Path warehouse = Files.createDirectories(dir.resolve("warehouse"));
    fixture =
        RestCatalogFixture.start(dir, warehouse.toString(), Map.of(), 0, Optional.of(CREDENTIAL));
    DemoTables.create(fixture.backend());
    allocator = new RootAllocator();
  }

  @AfterAll
  static void stop() throws Exception {
    allocator.close();
    fixture.close();
  }

  @Test
  void connect_withClientCredentials_resolvesTables() {
    // GIVEN the right client credentials
    IcebergConfig config = config(CREDENTIAL);

    // WHEN connected and resolving THEN it works, and the config never shows the secret
    try (IcebergFederation iceberg = IcebergFederation.connect(config, allocator)) {
      assertThat(iceberg.resolver().resolve(TableRef.parse("iceberg.demo.nation"))).isNotNull();
    }
    assertThat(config.toString()).doesNotContain(SECRET).contains("<redacted>");
    assertThat(config.oauth2().orElseThrow().toString()).doesNotContain(SECRET);
  }

  @Test
  void connect_withAWrongSecret_failsWithoutTheSecretInErrorsOrLogs() {
    // GIVEN a wrong secret, and the log output captured
    String wrong = "wrong-" + SECRET;
    PrintStream original = System.err;
    ByteArrayOutputStream logs = new ByteArrayOutputStream();
    LakeException error;
    System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
    try {
      // WHEN connecting
      error =
          OAuth2TestSupport.catchLake(
              () -> IcebergFederation.connect(config("lake-client:" + wrong), allocator));
    } finally {
      System.setErr(original);
    }

    // THEN EXTERNAL_UNAVAILABLE, and neither secret appears in the error chain or the logs
    assertThat(error.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE);
    assertThat(error.getMessage()).doesNotContain(SECRET).doesNotContain(wrong);
    assertThat(error.toString()).doesNotContain(SECRET);
    for (Throwable t = error; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).doesNotContain(SECRET);
    }
    assertThat(logs.toString(StandardCharsets.UTF_8)).doesNotContain(SECRET);
  }

  @Test
  void requests_withoutCredentials_areRefusedByTheServer() {
    // GIVEN no credentials at all WHEN connecting THEN the catalog refuses lake
    LakeException error =
        OAuth2TestSupport.catchLake(
            () ->
                IcebergFederation.connect(
                    IcebergConfig.fromFlags(fixture.uri().toString(), null, "demo"), allocator));
    assertThat(error.code()).isEqualTo(ErrorCode.EXTERNAL_UNAVAILABLE);
  }

  static IcebergConfig config(String credential) {
    return IcebergConfig.fromFlags(fixture.uri().toString(), null, "demo")
        .withOAuth2(new IcebergConfig.OAuth2(credential, Optional.empty(), Optional.of("catalog")));
  }
}
