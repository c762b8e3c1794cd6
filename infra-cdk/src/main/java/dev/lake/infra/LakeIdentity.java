package dev.lake.infra;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * JWT bearer identities of the front door from CDK context, validated once: {@code
 * lake:jwtJwksUrl}, {@code lake:jwtIssuer}, {@code lake:jwtAudience} (all three or none) and
 * optionally {@code lake:jwtTenantClaim}, {@code lake:jwtGrantsClaim}. They become the front door's
 * {@code LAKE_JWT_*} variables (flags {@code --jwt-*}, docs/security.md); none set = static tokens
 * from the principals secret only.
 */
record LakeIdentity(Map<String, String> environment) {
  private static final Map<String, String> KEYS =
      Map.of(
          "lake:jwtJwksUrl", "LAKE_JWT_JWKS_URL",
          "lake:jwtIssuer", "LAKE_JWT_ISSUER",
          "lake:jwtAudience", "LAKE_JWT_AUDIENCE",
          "lake:jwtTenantClaim", "LAKE_JWT_TENANT_CLAIM",
          "lake:jwtGrantsClaim", "LAKE_JWT_GRANTS_CLAIM");

  LakeIdentity {
    environment = java.util.Collections.unmodifiableMap(new TreeMap<>(environment));
  }

  static LakeIdentity fromContext(Function<String, Object> context) {
    Map<String, String> env = new TreeMap<>();
    KEYS.forEach(
        (key, variable) -> {
          Object v = context.apply(key);
          if (v != null && !v.toString().isBlank()) {
            env.put(variable, v.toString().trim());
          }
        });
    boolean any = !env.isEmpty();
    for (String required : new String[] {"lake:jwtJwksUrl", "lake:jwtIssuer", "lake:jwtAudience"}) {
      if (any && !env.containsKey(KEYS.get(required))) {
        throw new IllegalArgumentException(
            required
                + " is required with any lake:jwt* setting (JWT identities need the key set,"
                + " issuer and audience)");
      }
    }
    String url = env.get("LAKE_JWT_JWKS_URL");
    if (url != null && !url.startsWith("https://")) {
      throw new IllegalArgumentException("lake:jwtJwksUrl must be an https:// URL: " + url);
    }
    return new LakeIdentity(env);
  }
}
