package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import dev.lake.core.Grant;
import dev.lake.core.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One line of a deployment principals file: the SHA-256 of a bearer token (never the token) and the
 * principal it authenticates. Grants are parsed as {@link Grant}s (INVALID_ARGUMENT naming the
 * grant otherwise) and kept in their canonical text, so a nested namespace is always quoted. An
 * entry may expire: from {@code expires} on its token is refused (rotation with an overlap: add the
 * new entry, let the old one expire).
 */
public record PrincipalEntry(
    String tokenSha256, String tenant, String id, List<String> grants, Optional<Instant> expires) {
  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

  public PrincipalEntry {
    requireNonNull(tokenSha256, "tokenSha256 is null");
    requireNonNull(tenant, "tenant is null");
    requireNonNull(id, "id is null");
    requireNonNull(expires, "expires is null");
    grants =
        requireNonNull(grants, "grants is null").stream()
            .map(g -> Grant.parse(g).toString())
            .toList();
    tokenSha256 = tokenSha256.toLowerCase(Locale.ROOT);
    if (!HEX64.matcher(tokenSha256).matches()) {
      throw new IllegalArgumentException(
          "tokenSha256 of principal " + id + " must be 64 hex digits (SHA-256 of the token)");
    }
    // validates tenant and id with the same rules as every other principal
    Principal.of(tenant, id, java.util.Set.copyOf(grants));
  }

  /** An entry that never expires. */
  public PrincipalEntry(String tokenSha256, String tenant, String id, List<String> grants) {
    this(tokenSha256, tenant, id, grants, Optional.empty());
  }

  /** Whether this entry's token is refused at {@code now}. */
  boolean expiredAt(Instant now) {
    return expires.isPresent() && !now.isBefore(expires.get());
  }

  public Principal principal() {
    return Principal.of(tenant, id, java.util.Set.copyOf(grants));
  }
}
