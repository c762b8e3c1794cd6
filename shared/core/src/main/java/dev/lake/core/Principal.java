package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * An authenticated caller: the tenant it belongs to, its id within the tenant, and the finite set
 * of namespace grants it holds. A grant {@code catalog.namespace} allows every table directly in
 * that namespace; {@code catalog.namespace.table} allows one table.
 */
public record Principal(String tenant, String id, Set<String> grants) {
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

  /** Whether this principal may read {@code ref}. */
  public boolean mayRead(TableRef ref) {
    return grants.contains(ref.qualifiedNamespace()) || grants.contains(ref.toString());
  }

  /** Whether this principal may read anything in {@code catalog.namespace}. */
  public boolean mayBrowse(String catalog, String namespace) {
    String ns = catalog + "." + namespace;
    return grants.stream().anyMatch(g -> g.equals(ns) || g.startsWith(ns + "."));
  }
}
