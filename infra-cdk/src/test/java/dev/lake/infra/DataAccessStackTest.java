package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * Issue 24 items 1 and 3 in the stack: read granted on exactly the data locations, TLS on the load
 * balancer's hop to the task with the task's key from Secrets Manager, the metrics endpoint kept on
 * loopback, and Iceberg federation turned on from context with its OAuth2 credential in Secrets
 * Manager.
 */
class DataAccessStackTest {
  static final String OAUTH2 =
      "arn:aws:secretsmanager:us-east-1:111122223333:secret:lake-iceberg-oauth2-AbCdEf";
  static Template template;
  static Template plain;

  @BeforeAll
  static void synth() {
    App app =
        new App(
            AppProps.builder()
                .context(
                    Map.of(
                        "lake:dataLocations", "s3://sales-lake/tables/,s3://shared-data/lake/eu/",
                        "lake:icebergRest", "https://catalog.example.com/api",
                        "lake:icebergAllow", "sales,ops.orders",
                        "lake:icebergWarehouse", "prod",
                        "lake:icebergOAuth2Secret", OAUTH2))
                .build());
    template = Template.fromStack(LakeApp.build(app));
    plain = Synthesized.get().template;
  }

  @Test
  void dataLocations_areGrantedAsPrefixes_toBothSides_andHandedToTheCode() {
    // THEN both roles read objects under each prefix only, and list the bucket only below it
    for (String role : List.of("FrontDoorTaskTaskRoleDefaultPolicy", "WorkerFunctionServiceRole")) {
      assertThat(policyText(role))
          .as(role)
          .contains("arn:\",{\"Ref\":\"AWS::Partition\"},\":s3:::sales-lake/tables/*")
          .contains("arn:\",{\"Ref\":\"AWS::Partition\"},\":s3:::shared-data/lake/eu/*")
          .contains("{\"StringLike\":{\"s3:prefix\":[\"tables/*\"]}}")
          .contains("{\"StringLike\":{\"s3:prefix\":[\"lake/eu/*\"]}}")
          .doesNotContain("s3:::sales-lake/*\"")
          .doesNotContain("s3:::sales-lake\",\"/*");
    }
    // AND the code gets the same list (it refuses anything outside it)
    frontDoorEnvironmentHas(
        template,
        LakeStackTest.env(
            "LAKE_DATA_LOCATIONS", "s3://sales-lake/tables/,s3://shared-data/lake/eu/"));
    template.hasResourceProperties(
        "AWS::Lambda::Function",
        Match.objectLike(
            Map.of(
                "Environment",
                Map.of(
                    "Variables",
                    Match.objectLike(
                        Map.of(
                            "LAKE_DATA_LOCATIONS",
                            "s3://sales-lake/tables/,s3://shared-data/lake/eu/"))))));
    // AND without the context nothing is granted and no location is handed over (reads fail)
    assertThat(plain.toJSON().toString()).doesNotContain("LAKE_DATA_LOCATIONS");
    assertThat(plain.toJSON().toString()).doesNotContain("s3:prefix");
  }

  @Test
  void loadBalancerToTask_isTls_withTheTasksKeyFromSecretsManager_andNoPlaintextProxyFlag() {
    // THEN the target group speaks TLS to the task
    plain.hasResourceProperties(
        "AWS::ElasticLoadBalancingV2::TargetGroup",
        Match.objectLike(Map.of("Protocol", "TLS", "Port", 31337)));
    // AND the task gets its certificate and key as ECS secrets (JSON keys of the parameter's
    // secret), never a plaintext-behind-a-proxy flag
    String task = plain.findResources("AWS::ECS::TaskDefinition").toString();
    assertThat(task)
        .contains("LAKE_TLS_CERT_PEM")
        .contains("LAKE_TLS_KEY_PEM")
        .contains(":cert::")
        .contains(":key::")
        .doesNotContain("LAKE_TRUSTED_TLS_PROXY");
    plain.hasParameter("TaskTlsSecretArn", Map.of("Type", "String", "MinLength", 1));
  }

  @Test
  void metrics_stayOnTheTasksLoopback_withNoPortOrIngressForThem() {
    frontDoorEnvironmentHas(plain, LakeStackTest.env("LAKE_METRICS_HOST", "127.0.0.1"));
    assertThat(plain.findResources("AWS::ECS::TaskDefinition").toString())
        .contains("PortMappings=[{ContainerPort=31337, Protocol=tcp}]");
    assertThat(plain.findResources("AWS::EC2::SecurityGroup").toString()).doesNotContain("9464");
  }

  @Test
  void icebergFederation_isWiredFromContext_withTheOAuth2CredentialFromSecretsManager() {
    // THEN both sides get the catalog, allowlist and warehouse
    Map<String, Object> federation =
        Map.of(
            "LAKE_ICEBERG_REST", "https://catalog.example.com/api",
            "LAKE_ICEBERG_ALLOW", "sales,ops.orders",
            "LAKE_ICEBERG_WAREHOUSE", "prod");
    template.hasResourceProperties(
        "AWS::Lambda::Function",
        Match.objectLike(Map.of("Environment", Map.of("Variables", Match.objectLike(federation)))));
    String task = template.findResources("AWS::ECS::TaskDefinition").toString();
    assertThat(task)
        .contains("LAKE_ICEBERG_REST")
        .contains("https://catalog.example.com/api")
        .contains("LAKE_ICEBERG_OAUTH2_CREDENTIAL")
        .contains(OAUTH2);
    // AND the worker's credential is a deploy-time reference to the secret, not a literal
    assertThat(template.findResources("AWS::Lambda::Function").toString())
        .contains("{{resolve:secretsmanager:" + OAUTH2 + ":SecretString:::}}");
    assertThat(plain.toJSON().toString()).doesNotContain("LAKE_ICEBERG_REST");
  }

  @Test
  void fromContext_refusesPlainHttp_bucketGrants_andOrphanedIcebergSettings() {
    assertThatThrownBy(
            () ->
                DataAccess.fromContext(
                    Map.<String, Object>of(
                            "lake:icebergRest", "http://catalog:8181",
                            "lake:icebergAllow", "demo",
                            "lake:dataLocations", "s3://a-b/x/")
                        ::get))
        .hasMessageStartingWith("lake:icebergRest must be an https:// URI");
    assertThatThrownBy(
            () -> DataAccess.fromContext(Map.<String, Object>of("lake:dataBuckets", "a")::get))
        .hasMessageStartingWith("lake:dataBuckets is replaced by lake:dataLocations");
    assertThatThrownBy(
            () ->
                DataAccess.fromContext(
                    Map.<String, Object>of("lake:dataLocations", "s3://a-b/x")::get))
        .hasMessage(
            "lake:dataLocations entry 's3://a-b/x' is not an s3://bucket/prefix/ ending in '/'");
    assertThatThrownBy(
            () -> DataAccess.fromContext(Map.<String, Object>of("lake:icebergAllow", "demo")::get))
        .hasMessage("lake:icebergAllow/icebergWarehouse/icebergOAuth2Secret need lake:icebergRest");
    assertThatThrownBy(
            () ->
                DataAccess.fromContext(
                    Map.<String, Object>of(
                            "lake:icebergRest", "https://c", "lake:icebergAllow", "demo")
                        ::get))
        .hasMessageStartingWith("lake:icebergRest needs lake:dataLocations");
  }

  private static String policyText(String logicalIdPrefix) {
    return template.findResources("AWS::IAM::Policy").entrySet().stream()
        .filter(e -> e.getKey().startsWith(logicalIdPrefix))
        .map(e -> toJson(e.getValue()))
        .reduce("", String::concat);
  }

  private static String toJson(Object o) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(o);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void frontDoorEnvironmentHas(Template t, Map<String, String> entry) {
    t.hasResourceProperties(
        "AWS::ECS::TaskDefinition",
        Map.of(
            "ContainerDefinitions",
            List.of(Match.objectLike(Map.of("Environment", Match.arrayWith(List.of(entry)))))));
  }
}
