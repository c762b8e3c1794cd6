package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The SDK clients of one process, built once and shared (they are thread-safe and pool their
 * connections). An endpoint override points every service at an emulator, with path-style S3 and
 * static test credentials unless real ones are configured. The SDK's own retry policy stays on;
 * {@link AwsConfig#apiCallTimeout()} bounds each call including its retries.
 */
public final class AwsClients implements AutoCloseable {
  private final SdkHttpClient http;
  private final S3Client s3;
  private final DynamoDbClient dynamo;
  private final SqsClient sqs;
  private final KmsClient kms;

  public AwsClients(AwsConfig config) {
    this(config, UrlConnectionHttpClient.builder().build());
  }

  /** With a given HTTP client (tests wrap it to inject transport faults). */
  public AwsClients(AwsConfig config, SdkHttpClient http) {
    requireNonNull(config, "config is null");
    this.http = requireNonNull(http, "http is null");
    Region region = Region.of(config.region());
    AwsCredentialsProvider credentials = credentials(config.endpoint());
    ClientOverrideConfiguration override =
        ClientOverrideConfiguration.builder().apiCallTimeout(config.apiCallTimeout()).build();
    ClientOverrideConfiguration longPoll =
        ClientOverrideConfiguration.builder()
            .apiCallTimeout(config.apiCallTimeout().plusSeconds(25))
            .build();
    var s3b =
        S3Client.builder()
            .httpClient(http)
            .region(region)
            .credentialsProvider(credentials)
            .overrideConfiguration(override)
            .forcePathStyle(config.endpoint().isPresent());
    var dynamob =
        DynamoDbClient.builder()
            .httpClient(http)
            .region(region)
            .credentialsProvider(credentials)
            .overrideConfiguration(override);
    var sqsb =
        SqsClient.builder()
            .httpClient(http)
            .region(region)
            .credentialsProvider(credentials)
            .overrideConfiguration(longPoll);
    var kmsb =
        KmsClient.builder()
            .httpClient(http)
            .region(region)
            .credentialsProvider(credentials)
            .overrideConfiguration(override);
    config
        .endpoint()
        .ifPresent(
            uri -> {
              s3b.endpointOverride(uri);
              dynamob.endpointOverride(uri);
              sqsb.endpointOverride(uri);
              kmsb.endpointOverride(uri);
            });
    this.s3 = s3b.build();
    this.dynamo = dynamob.build();
    this.sqs = sqsb.build();
    this.kms = kmsb.build();
  }

  /** The emulator key with an emulator and no configured credentials, else the default chain. */
  static AwsCredentialsProvider credentials(Optional<URI> endpoint) {
    if (usesEmulatorCredentials(endpoint)) {
      return StaticCredentialsProvider.create(
          AwsBasicCredentials.create(EMULATOR_KEY, EMULATOR_KEY));
    }
    return DefaultCredentialsProvider.builder().build();
  }

  /** The key id and secret emulators are called with. */
  public static final String EMULATOR_KEY = "test";

  /**
   * Whether this process talks to an emulator with the fixed {@link #EMULATOR_KEY}: only with an
   * endpoint override and no credentials configured in the environment. Everything else uses the
   * default provider chain (environment, profile, container, instance role).
   */
  public static boolean usesEmulatorCredentials(Optional<URI> endpoint) {
    boolean configured =
        System.getenv("AWS_ACCESS_KEY_ID") != null
            || System.getenv("AWS_PROFILE") != null
            || System.getenv("AWS_CONTAINER_CREDENTIALS_FULL_URI") != null
            || System.getenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") != null;
    return endpoint.isPresent() && !configured;
  }

  public S3Client s3() {
    return s3;
  }

  public DynamoDbClient dynamo() {
    return dynamo;
  }

  public SqsClient sqs() {
    return sqs;
  }

  public KmsClient kms() {
    return kms;
  }

  @Override
  public void close() {
    s3.close();
    dynamo.close();
    sqs.close();
    kms.close();
    http.close();
  }
}
