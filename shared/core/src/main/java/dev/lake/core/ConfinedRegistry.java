package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A registry whose registrations must lie under the deployment's {@link DataLocations}: {@link
 * #register} checks the location before the store writes anything; reads pass through (the format
 * readers check every location again when they read).
 */
final class ConfinedRegistry implements Registry {
  private final Registry store;
  private final DataLocations locations;

  ConfinedRegistry(Registry store, DataLocations locations) {
    this.store = requireNonNull(store, "store is null");
    this.locations = requireNonNull(locations, "locations is null");
  }

  @Override
  public Entry register(TableRef ref, String format, String location, Map<String, String> options) {
    // the entry's own checks first (name, format), so their errors come before the location's
    new Entry(ref, format, location, options, "unchecked", 0);
    locations.checkRegistration(location);
    return store.register(ref, format, location, options);
  }

  @Override
  public boolean unregister(TableRef ref) {
    return store.unregister(ref);
  }

  @Override
  public Optional<Entry> find(TableRef ref) {
    return store.find(ref);
  }

  @Override
  public List<Entry> list() {
    return store.list();
  }
}
