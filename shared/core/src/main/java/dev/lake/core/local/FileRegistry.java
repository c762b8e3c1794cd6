package dev.lake.core.local;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.ErrorCode;
import dev.lake.core.Json;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The embedded registry: one JSON file ({@code {"tables": [{"name", "format", "location",
 * "options", "incarnation", "registeredAt"}]}}; a table without {@code format}, as written before
 * formats were named, is a {@link Registry#LEGACY_FORMAT} table; an entry such old processes would
 * misread has {@link Entry#legacyLocation} under {@code location} and its location under {@code
 * formatLocation}), rewritten atomically under an exclusive file lock so that a CLI {@code table
 * register} and a running server can share it. Every read stats the file and parses it again only
 * when its version changed: each write replaces the file by an atomic rename, so (file key,
 * modification time, size) identifies the content; another process's write is seen by the next
 * read. The request path puts a bounded cache in front (see the Lance resolver).
 */
public final class FileRegistry implements Registry {
  /** The location of an entry that is not {@link Entry#legacyReadable}. */
  private static final String FORMAT_LOCATION = "formatLocation";

  /** What identifies one written version of the file (a rename gives it a new file key). */
  private record Version(Object fileKey, FileTime modified, long size) {}

  private record Parsed(Version version, List<Entry> entries) {}

  private final Path file;
  private final Path lockFile;
  private volatile Parsed parsed;

  public FileRegistry(Path file) {
    this.file = requireNonNull(file, "file is null").toAbsolutePath();
    this.lockFile = this.file.resolveSibling(this.file.getFileName() + ".lock");
    try {
      Files.createDirectories(this.file.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create registry directory", e);
    }
  }

  /** The registry file. */
  public Path file() {
    return file;
  }

  @Override
  public Entry register(TableRef ref, String format, String location, Map<String, String> options) {
    Entry entry = Entry.fresh(ref, format, location, options);
    return locked(
        () -> {
          List<Entry> entries = new ArrayList<>(parse()); // under the lock: the file as it is
          if (entries.stream().anyMatch(e -> e.ref().equals(ref))) {
            throw new LakeException(
                ErrorCode.INVALID_ARGUMENT, "Table " + ref + " is already registered");
          }
          entries.add(entry);
          write(entries);
          return entry;
        });
  }

  @Override
  public boolean unregister(TableRef ref) {
    return locked(
        () -> {
          List<Entry> entries = new ArrayList<>(parse()); // under the lock: the file as it is
          boolean removed = entries.removeIf(e -> e.ref().equals(ref));
          if (removed) {
            write(entries);
          }
          return removed;
        });
  }

  @Override
  public Optional<Entry> find(TableRef ref) {
    return read().stream().filter(e -> e.ref().equals(ref)).findFirst();
  }

  @Override
  public List<Entry> list() {
    return read();
  }

  private List<Entry> read() {
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw unavailable(e);
    }
    Version version =
        new Version(attributes.fileKey(), attributes.lastModifiedTime(), attributes.size());
    Parsed last = parsed;
    if (last != null && version.fileKey() != null && last.version().equals(version)) {
      return last.entries();
    }
    // parsed after the stat: if a write lands in between, the newer content is stored under the
    // older version, and the next read (seeing the newer version) parses again
    List<Entry> entries = parse();
    parsed = new Parsed(version, entries);
    return entries;
  }

  private List<Entry> parse() {
    if (!Files.exists(file)) {
      return List.of();
    }
    try {
      JsonNode root = Json.mapper().readTree(file.toFile());
      List<Entry> entries = new ArrayList<>();
      for (JsonNode n : root.path("tables")) {
        Map<String, String> options = new TreeMap<>();
        n.path("options")
            .fields()
            .forEachRemaining(f -> options.put(f.getKey(), f.getValue().asText()));
        entries.add(
            new Entry(
                TableRef.parse(n.path("name").asText()),
                // entries written before the format field existed are Lance tables
                n.path("format").asText(LEGACY_FORMAT),
                // an entry old processes would misread keeps its location out of their sight
                n.has(FORMAT_LOCATION)
                    ? n.path(FORMAT_LOCATION).asText()
                    : n.path("location").asText(),
                options,
                n.path("incarnation").asText(),
                n.path("registeredAt").asLong()));
      }
      return List.copyOf(entries);
    } catch (JsonProcessingException e) {
      // a damaged file is lake's own state gone wrong, not a dependency to retry
      throw new LakeException(ErrorCode.INTERNAL, "The registry file is not valid JSON", e);
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  private void write(List<Entry> entries) throws IOException {
    ObjectNode root = Json.mapper().createObjectNode();
    ArrayNode tables = root.putArray("tables");
    for (Entry e : entries) {
      ObjectNode table =
          tables
              .addObject()
              .put("name", e.ref().toString())
              .put("format", e.format())
              .put("location", e.legacyLocation());
      if (!e.legacyReadable()) {
        table.put(FORMAT_LOCATION, e.location());
      }
      if (!e.options().isEmpty()) {
        ObjectNode options = table.putObject("options");
        new TreeMap<>(e.options()).forEach(options::put);
      }
      table.put("incarnation", e.incarnation()).put("registeredAt", e.registeredAtMillis());
    }
    Path tmp = Files.createTempFile(file.getParent(), ".registry", ".tmp");
    Json.pretty().writeValue(tmp.toFile(), root);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private <T> T locked(LocalFiles.IoAction<T> action) {
    try {
      return LocalFiles.locked(lockFile, action);
    } catch (IOException e) {
      throw unavailable(e);
    }
  }

  /** A file-system failure, as {@code DynamoDbRegistry} reports a service failure. */
  private static LakeException unavailable(IOException e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The table registry is unavailable; retry later", e);
  }
}
