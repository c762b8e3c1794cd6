package dev.lake.app;

import dev.lake.core.DataLocations;
import dev.lake.core.FormatOptions;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --data-locations} ({@code LAKE_DATA_LOCATIONS}) of every lake process command, added with
 * the formats' own options by {@link FormatFlags}: where table data may live. Its settings record,
 * {@link DataLocations}, reaches every format through the process's format settings; without the
 * flag a process reads nothing ({@link RuntimeConfig} puts {@link DataLocations#NONE} in) except in
 * local mode, which adds its data directory.
 */
public final class DataLocationOptions implements FormatOptions {
  @Option(
      names = "--data-locations",
      description =
          "Comma-separated s3://bucket/prefix/ prefixes (each ending in '/') that table data (Lance"
              + " datasets, Iceberg metadata, manifests, data and delete files) may be read from;"
              + " absolute local directories only beside a registry file (local mode adds its data"
              + " directory)."
              + " Unset: nothing is readable outside local mode.")
  String locations;

  /** The parsed locations when the flag is given, else none (the process decides the default). */
  @Override
  public List<Object> settings() {
    return List.copyOf(given().stream().toList());
  }

  /** The parsed locations, if the flag is given. */
  public Optional<DataLocations> given() {
    return Optional.ofNullable(locations).map(l -> DataLocations.parse(l, true));
  }
}
