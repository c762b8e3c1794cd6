package dev.lake.app;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.StorageAccess;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import dev.lake.engine.FileImport;
import dev.lake.lance.LanceDatasets;
import dev.lake.lance.LanceFormat;
import dev.lake.lance.LanceStorage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code lake table import NAME FILE|DIR…}: Parquet, CSV, JSON or Arrow IPC files become a new
 * version of a Lance table (the trusted operator's command, like {@code register}; see {@link
 * FileImport}). The table is registered on its first import; {@code --append} and {@code
 * --overwrite} write a new version of a registered one, which new statements read and tickets
 * sealed before never do.
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description =
        "Import Parquet, CSV, JSON or Arrow IPC files (or directories of them) as a new version of"
            + " a Lance table, registering it on first import (trusted operator action).")
final class TableImportCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin RegistryOptions registry;

  @CommandLine.Mixin LocalDataDir local;

  @CommandLine.Mixin AwsClientOptions aws;

  @CommandLine.Mixin DataLocationOptions dataLocations;

  @Parameters(index = "0", description = "lake.<namespace>.<table>")
  String name;

  @Parameters(
      index = "1..*",
      arity = "1..*",
      description =
          "Files or directories to import, all of one format: .parquet, .csv/.tsv,"
              + " .json/.jsonl/.ndjson or .arrow (.gz/.zst compressed text too).")
  List<Path> inputs;

  @Option(
      names = "--location",
      description =
          "Where the Lance dataset is written (a path or s3://bucket/prefix/name.lance). Default"
              + " with a registry file: <registry dir>/tables/<namespace>/<table>.lance; a"
              + " registered table keeps its location.")
  String location;

  @Option(names = "--append", description = "Add the rows to the table as a new version.")
  boolean append;

  @Option(names = "--overwrite", description = "Replace the table's rows with a new version.")
  boolean overwrite;

  @Override
  public Integer call() {
    if (append && overwrite) {
      throw usage("--append and --overwrite exclude each other");
    }
    TableRef ref = TableRef.parse(name);
    if (!ref.catalog().equals("lake")) {
      throw usage("Tables are imported into catalog lake (lake.<namespace>.<table>), not " + ref);
    }
    FileImport.Source source = FileImport.Source.resolve(inputs);
    RegistrySource registrySource = registry.sourceOr(local.registryFile());
    StorageAccess storage = ObjectStorage.access(Optional.of(aws.clientsOnly()));
    return TableCommand.withRegistry(
        registry, local, aws, r -> run(r, registrySource, ref, source, storage));
  }

  private int run(
      Registry r,
      RegistrySource registrySource,
      TableRef ref,
      FileImport.Source source,
      StorageAccess storage) {
    Optional<Registry.Entry> entry = r.find(ref);
    String target = target(ref, entry, registrySource);
    TableFormats.installed().checkEntry(LanceFormat.TAG, target, Map.of());
    // the dataset is written only under the deployment's data locations (as register checks)
    TableCommand.locations(dataLocations, registry, local).checkRegistration(target);
    Map<String, String> lance = LanceStorage.options(storage);
    PrintWriter out = spec.commandLine().getOut();
    long rows;
    long bytes;
    long version;
    List<String> columns;
    try (RootAllocator allocator = new RootAllocator();
        ProgressBar bar = new ProgressBar(System.console() != null)) {
      if (!append && !overwrite && LanceDatasets.exists(target, allocator, lance)) {
        throw usage(
            "A dataset exists at "
                + target
                + "; --append adds the rows to it, --overwrite replaces its rows");
      }
      try (FileImport.Reading reading = FileImport.read(source, allocator, bar)) {
        try {
          // Lance closes the reader and commits the version only after its last batch
          version = LanceDatasets.write(target, reading.reader(), allocator, append, 0, lance);
        } catch (RuntimeException e) {
          throw usage("Lance did not write " + target + ": " + rootMessage(e));
        }
        reading.finished();
        rows = reading.rows();
        bytes = reading.bytes();
        columns = reading.columns();
      }
    }
    out.println(
        "imported "
            + String.format(Locale.ROOT, "%,d", rows)
            + " rows ("
            + human(bytes)
            + " of Arrow data from "
            + source.files().size()
            + " "
            + source.format().name().toLowerCase(Locale.ROOT)
            + " file"
            + (source.files().size() == 1 ? "" : "s")
            + ") into "
            + ref
            + " version "
            + version
            + " at "
            + target);
    if (entry.isEmpty()) {
      boolean newNamespace =
          r.list().stream()
              .noneMatch(
                  e ->
                      e.ref().catalog().equals(ref.catalog())
                          && e.ref().namespace().equals(ref.namespace()));
      Registry.Entry registered = LanceFormat.register(r, ref, target);
      out.println(
          "registered "
              + registered.ref()
              + " as lance (incarnation "
              + registered.incarnation()
              + ")");
      if (newNamespace && registrySource.file().isPresent()) {
        // bin/lake local grants its demo token the registered namespaces when it starts
        out.println(
            ref.catalog()
                + "."
                + ref.namespace()
                + " is a new namespace: a running bin/lake local serves it after a restart");
      }
    }
    out.println("schema:");
    columns.forEach(c -> out.println("  " + c));
    out.flush();
    return 0;
  }

  /** Where the rows go: the registered location, --location, or beside the registry's tables. */
  private String target(TableRef ref, Optional<Registry.Entry> entry, RegistrySource source) {
    if (entry.isPresent()) {
      Registry.Entry e = entry.get();
      if (!e.format().equals(LanceFormat.TAG)) {
        throw usage(ref + " is registered as " + e.format() + "; only Lance tables are imported");
      }
      if (location != null && !location.equals(e.location())) {
        throw usage(
            ref + " is registered at " + e.location() + "; omit --location or unregister it first");
      }
      if (!append && !overwrite) {
        throw usage(ref + " is registered; --append adds the rows, --overwrite replaces them");
      }
      return e.location();
    }
    if (location != null) {
      return location;
    }
    Path file =
        source
            .file()
            .orElseThrow(
                () -> usage("--location is needed with a DynamoDB registry (--registry-table)"));
    Path parent = file.toAbsolutePath().getParent();
    return parent
        .resolve("tables")
        .resolve(ref.namespace())
        .resolve(ref.table() + ".lance")
        .toString();
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return m.lines().findFirst().orElse(m);
  }

  private static LakeException usage(String message) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, message);
  }

  static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    double v = bytes;
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** A one-line progress bar on stderr, drawn only on a terminal and erased when done. */
  static final class ProgressBar implements FileImport.Progress, AutoCloseable {
    private static final int WIDTH = 30;
    private final boolean terminal;
    private boolean drawn;

    ProgressBar(boolean terminal) {
      this.terminal = terminal;
    }

    @Override
    public synchronized void update(double fraction, long rows) {
      if (!terminal) {
        return;
      }
      String count = String.format(Locale.ROOT, "%,d rows", rows);
      String line;
      if (fraction < 0) {
        line = "importing " + count;
      } else {
        int filled = (int) Math.round(fraction * WIDTH);
        line =
            "importing ["
                + "#".repeat(filled)
                + "-".repeat(WIDTH - filled)
                + "] "
                + String.format(Locale.ROOT, "%5.1f%%", fraction * 100)
                + "  "
                + count;
      }
      System.err.print("\r" + line + "\u001b[K");
      System.err.flush();
      drawn = true;
    }

    @Override
    public synchronized void close() {
      if (drawn) {
        System.err.print("\r\u001b[K");
        System.err.flush();
      }
    }
  }
}
