package dev.lake.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** JWT identities of the front door from CDK context, read from a synthesized template. */
class IdentityStackTest {
  @Test
  void jwtContext_setsTheFrontDoorsJwtVariables() {
    // GIVEN a Cognito user pool as the OIDC provider in context
    String issuer = "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf";
    App app =
        new App(
            AppProps.builder()
                .context(
                    Map.of(
                        "lake:jwtJwksUrl",
                        issuer + "/.well-known/jwks.json",
                        "lake:jwtIssuer",
                        issuer,
                        "lake:jwtAudience",
                        "1h2g3f4e5d",
                        "lake:jwtTenantClaim",
                        "custom:tenant"))
                .build());
    // WHEN the stack is synthesized
    Template template = Template.fromStack(LakeApp.build(app));
    // THEN the front-door container carries them as LAKE_JWT_* (defaults stay the code's)
    template.hasResourceProperties(
        "AWS::ECS::TaskDefinition",
        Map.of(
            "ContainerDefinitions",
            List.of(
                Match.objectLike(
                    Map.of(
                        "Environment",
                        Match.arrayWith(
                            List.of(
                                LakeStackTest.env("LAKE_JWT_AUDIENCE", "1h2g3f4e5d"),
                                LakeStackTest.env("LAKE_JWT_ISSUER", issuer),
                                LakeStackTest.env(
                                    "LAKE_JWT_JWKS_URL", issuer + "/.well-known/jwks.json"),
                                LakeStackTest.env("LAKE_JWT_TENANT_CLAIM", "custom:tenant"))))))));
  }

  @Test
  void noJwtContext_setsNoJwtVariable_andAPartialOneIsRefused() {
    assertThat(LakeIdentity.fromContext(k -> null).environment()).isEmpty();
    assertThatThrownBy(
            () ->
                LakeIdentity.fromContext(
                    k -> k.equals("lake:jwtIssuer") ? "https://idp.example.com" : null))
        .hasMessage(
            "lake:jwtJwksUrl is required with any lake:jwt* setting (JWT identities need the key"
                + " set, issuer and audience)");
    assertThatThrownBy(
            () ->
                LakeIdentity.fromContext(
                    Map.<String, Object>of(
                            "lake:jwtJwksUrl", "http://idp/jwks",
                            "lake:jwtIssuer", "i",
                            "lake:jwtAudience", "a")
                        ::get))
        .hasMessage("lake:jwtJwksUrl must be an https:// URL: http://idp/jwks");
    String defaults = Synthesized.get().template.toJSON().toString();
    assertThat(defaults).doesNotContain("LAKE_JWT_");
  }
}
