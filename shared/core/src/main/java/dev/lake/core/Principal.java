package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An authenticated caller: the tenant it belongs to, its id within the tenant, and the finite set
 * of typed {@link Grant}s it holds (a namespace, or one table).
 */
public record Principal(String tenant, String id, Set<Grant> grants) {
  public Principal {
    requireNonNull(tenant, "tenant is null");
    requireNonNull(id, "id is null");
    grants = Set.copyOf(requireNonNull(grants, "grants is null"));
    if (!tenant.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new IllegalArgumentException("tenant must be 1-64 of [A-Za-z0-9_-]: " + tenant);
    }
    if (id.isBlank() || id.length() > 256) {
      throw new IllegalArgumentException("principal id must be 1-256 characters");
    }
  }

  /** A principal whose grants are given as text; each is parsed with {@link Grant#parse}. */
  public static Principal of(String tenant, String id, Collection<String> grants) {
    requireNonNull(grants, "grants is null");
    return new Principal(
        tenant, id, grants.stream().map(Grant::parse).collect(Collectors.toUnmodifiableSet()));
  }

  /** Whether this principal may read {@code ref}. */
  public boolean mayRead(TableRef ref) {
    requireNonNull(ref, "ref is null");
    return grants.stream().anyMatch(g -> g.covers(ref));
  }
}
