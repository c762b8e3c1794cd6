package dev.lake.infra;

import static java.util.Objects.requireNonNull;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.IConstruct;

/**
 * Which table data the deployment reads, from CDK context: the data locations ({@code
 * lake:dataLocations=s3://bucket/prefix/,…}, handed to the code as {@code LAKE_DATA_LOCATIONS} and
 * granted read on exactly those prefixes: {@code s3:GetObject} on {@code bucket/prefix*} and {@code
 * s3:ListBucket} on the bucket only for keys under the prefix) and the optional Iceberg REST
 * federation ({@code lake:icebergRest} (https), {@code lake:icebergAllow}, {@code
 * lake:icebergWarehouse}, {@code lake:icebergOAuth2Secret}: the ARN of a Secrets Manager secret
 * holding {@code client_id:secret}). Without data locations nothing is granted and the code reads
 * no table (fails closed). Validated once, at synthesis.
 *
 * @param dataLocations normalized {@code s3://bucket/prefix/} prefixes
 * @param icebergRest the REST catalog URI (https), if federation is on
 * @param icebergAllow the namespaces/tables the federation exposes (required with a catalog)
 * @param icebergWarehouse the catalog's warehouse, if it needs one
 * @param icebergOAuth2Secret ARN of the OAuth2 credential's secret, if the catalog needs one
 */
record DataAccess(
    List<String> dataLocations,
    Optional<String> icebergRest,
    Optional<String> icebergAllow,
    Optional<String> icebergWarehouse,
    Optional<String> icebergOAuth2Secret) {
  private static final Pattern PREFIX =
      Pattern.compile("s3://([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])/((?:[A-Za-z0-9!_.*'()=+-]+/)*)");

  DataAccess {
    dataLocations = List.copyOf(requireNonNull(dataLocations, "dataLocations is null"));
    requireNonNull(icebergRest, "icebergRest is null");
    requireNonNull(icebergAllow, "icebergAllow is null");
    requireNonNull(icebergWarehouse, "icebergWarehouse is null");
    requireNonNull(icebergOAuth2Secret, "icebergOAuth2Secret is null");
    for (String l : dataLocations) {
      if (!PREFIX.matcher(l).matches() || l.contains("/./") || l.contains("/../")) {
        throw new IllegalArgumentException(
            "lake:dataLocations entry '" + l + "' is not an s3://bucket/prefix/ ending in '/'");
      }
    }
    if (icebergRest.isPresent()) {
      if (!icebergRest.get().startsWith("https://")) {
        throw new IllegalArgumentException(
            "lake:icebergRest must be an https:// URI (catalog traffic and its OAuth2 credential"
                + " never travel in plaintext): "
                + icebergRest.get());
      }
      if (icebergAllow.isEmpty()) {
        throw new IllegalArgumentException(
            "lake:icebergRest needs lake:icebergAllow: the namespaces or tables lake may read");
      }
      if (dataLocations.isEmpty()) {
        throw new IllegalArgumentException(
            "lake:icebergRest needs lake:dataLocations: the prefixes its tables' files lie under");
      }
    } else if (icebergAllow.isPresent()
        || icebergWarehouse.isPresent()
        || icebergOAuth2Secret.isPresent()) {
      throw new IllegalArgumentException(
          "lake:icebergAllow/icebergWarehouse/icebergOAuth2Secret need lake:icebergRest");
    }
  }

  /** From context ({@code context} answers null for an unset key, as tryGetContext does). */
  static DataAccess fromContext(Function<String, Object> context) {
    if (text(context, "lake:dataBuckets").isPresent()) {
      throw new IllegalArgumentException(
          "lake:dataBuckets is replaced by lake:dataLocations=s3://bucket/prefix/,… (read is"
              + " granted on those prefixes only, and the code refuses anything outside them)");
    }
    LinkedHashSet<String> locations = new LinkedHashSet<>();
    text(context, "lake:dataLocations")
        .ifPresent(
            v -> {
              for (String l : v.split(",")) {
                if (!l.isBlank()) {
                  locations.add(l.trim());
                }
              }
            });
    return new DataAccess(
        List.copyOf(locations),
        text(context, "lake:icebergRest"),
        text(context, "lake:icebergAllow"),
        text(context, "lake:icebergWarehouse"),
        text(context, "lake:icebergOAuth2Secret"));
  }

  /** The {@code LAKE_*} settings both the front door and the worker get (no secret among them). */
  Map<String, String> environment() {
    Map<String, String> env = new TreeMap<>();
    if (!dataLocations.isEmpty()) {
      env.put(LakeEnv.DATA_LOCATIONS, String.join(",", dataLocations));
    }
    icebergRest.ifPresent(v -> env.put(LakeEnv.ICEBERG_REST, v));
    icebergAllow.ifPresent(v -> env.put(LakeEnv.ICEBERG_ALLOW, v));
    icebergWarehouse.ifPresent(v -> env.put(LakeEnv.ICEBERG_WAREHOUSE, v));
    return env;
  }

  /**
   * Read on exactly the data locations: objects under each prefix, and listing the bucket only for
   * keys under it (Lance lists a dataset's versions; Iceberg needs objects only).
   */
  void grantRead(IGrantable role, IConstruct nagScope) {
    List<Object> appliesTo = new ArrayList<>();
    for (String location : dataLocations) {
      var m = PREFIX.matcher(location);
      if (!m.matches()) {
        throw new IllegalStateException(location); // validated in the constructor
      }
      String bucket = m.group(1);
      String prefix = m.group(2);
      role.getGrantPrincipal()
          .addToPrincipalPolicy(
              PolicyStatement.Builder.create()
                  .effect(Effect.ALLOW)
                  .actions(List.of("s3:GetObject"))
                  .resources(
                      List.of("arn:" + Aws.PARTITION + ":s3:::" + bucket + "/" + prefix + "*"))
                  .build());
      role.getGrantPrincipal()
          .addToPrincipalPolicy(
              PolicyStatement.Builder.create()
                  .effect(Effect.ALLOW)
                  .actions(List.of("s3:ListBucket"))
                  .resources(List.of("arn:" + Aws.PARTITION + ":s3:::" + bucket))
                  .conditions(Map.of("StringLike", Map.of("s3:prefix", List.of(prefix + "*"))))
                  .build());
      appliesTo.add("Resource::arn:<AWS::Partition>:s3:::" + bucket + "/" + prefix + "*");
    }
    if (!appliesTo.isEmpty()) {
      NagSuppressions.addResourceSuppressions(
          nagScope,
          List.of(
              NagPackSuppression.builder()
                  .id("AwsSolutions-IAM5")
                  .reason(
                      "Read of the objects under each configured data location"
                          + " (lake:dataLocations); the code refuses every location outside them.")
                  .appliesTo(appliesTo)
                  .build()),
          true);
    }
  }

  private static Optional<String> text(Function<String, Object> context, String key) {
    Object v = context.apply(key);
    return v == null || v.toString().isBlank()
        ? Optional.empty()
        : Optional.of(v.toString().trim());
  }
}
