package dev.lake.core;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The one registration point of table formats: every {@link TableFormat} on the classpath, found by
 * {@link ServiceLoader}, indexed by tag and by snapshot type. Snapshot codecs go through here, so
 * an envelope naming a tag no installed format owns fails closed ({@link
 * ErrorCode#TICKET_INVALID}).
 */
public final class TableFormats {
  private static final String TYPE = "type";

  private final Map<String, TableFormat<?>> byTag = new LinkedHashMap<>();
  private final Map<Class<?>, TableFormat<?>> byType = new LinkedHashMap<>();

  private TableFormats(List<? extends TableFormat<?>> formats) {
    for (TableFormat<?> format : formats) {
      requireNonNull(format, "format is null");
      if (byTag.putIfAbsent(format.tag(), format) != null) {
        throw new IllegalStateException("two table formats use the tag '" + format.tag() + "'");
      }
      if (byType.putIfAbsent(format.snapshotType(), format) != null) {
        throw new IllegalStateException(
            "two table formats own " + format.snapshotType().getSimpleName());
      }
    }
  }

  /** Exactly {@code formats} (tests; a deployment uses {@link #installed()}). */
  public static TableFormats of(List<? extends TableFormat<?>> formats) {
    return new TableFormats(List.copyOf(requireNonNull(formats, "formats is null")));
  }

  /** Every format registered on the classpath through {@code META-INF/services}. */
  public static TableFormats installed() {
    return Installed.FORMATS;
  }

  /** The tags of the registered formats, in registration order. */
  public List<String> tags() {
    return List.copyOf(byTag.keySet());
  }

  /** The registered formats, in registration order. */
  public List<TableFormat<?>> formats() {
    return List.copyOf(byTag.values());
  }

  /**
   * The catalogs of every registered format the deployment configures ({@link TableFormat#open}),
   * in registration order, then catalog {@code lake} over every format that serves registered
   * tables ({@link TableFormat#openRegistered}, see {@link LakeCatalog}); if one fails, those
   * already built are closed again.
   */
  public List<CatalogPlugin> open(FormatContext context) {
    requireNonNull(context, "context is null");
    List<CatalogPlugin> opened = new ArrayList<>();
    Map<String, RegisteredTables> registered = new LinkedHashMap<>();
    try {
      for (TableFormat<?> format : byTag.values()) {
        format.open(context).ifPresent(opened::add);
        format.openRegistered(context).ifPresent(r -> registered.put(format.tag(), r));
      }
      if (!registered.isEmpty()) {
        opened.add(LakeCatalog.plugin(context.registry(), context.registryFreshness(), registered));
      }
      return List.copyOf(opened);
    } catch (RuntimeException e) {
      List<AutoCloseable> owners = new ArrayList<>();
      registered.values().forEach(r -> r.owner().ifPresent(owners::add));
      opened.forEach(c -> c.owner().ifPresent(owners::add));
      for (int i = owners.size() - 1; i >= 0; i--) {
        try {
          owners.get(i).close();
        } catch (Exception closing) {
          e.addSuppressed(closing);
        }
      }
      throw e;
    }
  }

  /**
   * What every registered format grants to read what {@code settings} expose ({@link
   * TableFormat#grantsToRead}).
   */
  public List<Grant> grantsToRead(List<Object> settings) {
    requireNonNull(settings, "settings is null");
    List<Grant> grants = new ArrayList<>();
    byTag.values().forEach(format -> grants.addAll(format.grantsToRead(settings)));
    return List.copyOf(grants);
  }

  /** The format of {@code tag}; an unknown tag fails closed as {@code TICKET_INVALID}. */
  public TableFormat<?> resolve(String tag) {
    TableFormat<?> format = byTag.get(tag);
    if (format == null) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket names an unknown snapshot type");
    }
    return format;
  }

  /**
   * Checks a table about to be registered as {@code tag}: an unknown tag fails closed with {@code
   * INVALID_ARGUMENT} naming the installed ones; otherwise the format checks {@code location} and
   * {@code options} ({@link TableFormat#checkEntry}).
   */
  public void checkEntry(String tag, String location, Map<String, String> options) {
    requireNonNull(tag, "tag is null");
    requireNonNull(location, "location is null");
    requireNonNull(options, "options is null");
    TableFormat<?> format = byTag.get(tag);
    if (format == null) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Unknown table format '" + tag + "'; installed: " + String.join(", ", tags()));
    }
    format.checkEntry(location, options);
  }

  /**
   * Checks that {@code location} opens as a table of format {@code tag} ({@link
   * TableFormat#checkOpens}), after {@link #checkEntry}.
   */
  public void checkOpens(
      String tag,
      String location,
      Map<String, String> options,
      StorageAccess storage,
      org.apache.arrow.memory.BufferAllocator allocator) {
    checkEntry(tag, location, options);
    byTag.get(tag).checkOpens(location, options, storage, allocator);
  }

  /** The tag of {@code snapshot}'s format, if one is installed (for audit lines and logs). */
  public java.util.Optional<String> findTag(Snapshot snapshot) {
    TableFormat<?> format = byType.get(requireNonNull(snapshot, "snapshot is null").getClass());
    return java.util.Optional.ofNullable(format).map(TableFormat::tag);
  }

  /** Writes {@code snapshot} with its format's tag under {@code "type"} into {@code node}. */
  public void encode(Snapshot snapshot, ObjectNode node) {
    requireNonNull(snapshot, "snapshot is null");
    TableFormat<?> format = byType.get(snapshot.getClass());
    if (format == null) {
      throw new LakeException(
          ErrorCode.INTERNAL,
          "No table format is installed for " + snapshot.getClass().getSimpleName());
    }
    node.put(TYPE, format.tag());
    encodeAs(format, snapshot, node);
  }

  /** Reads the snapshot {@link #encode} wrote, by its tag. */
  public Snapshot decode(JsonNode node) {
    return resolve(text(node, TYPE)).decode(node);
  }

  private static <S extends Snapshot> void encodeAs(
      TableFormat<S> format, Snapshot snapshot, ObjectNode node) {
    format.encode(format.snapshotType().cast(snapshot), node);
  }

  /** A required text field of a sealed snapshot; missing fails closed. */
  public static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket field '" + field + "' is missing");
    }
    return value.asText();
  }

  /** A required integral field of a sealed snapshot; missing fails closed. */
  public static long number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.canConvertToLong()) {
      throw new LakeException(ErrorCode.TICKET_INVALID, "Ticket field '" + field + "' is missing");
    }
    return value.asLong();
  }

  /** Loaded once, on first use. */
  private static final class Installed {
    static final TableFormats FORMATS = load();

    @SuppressWarnings("rawtypes")
    private static TableFormats load() {
      List<TableFormat<?>> found = new ArrayList<>();
      for (TableFormat format :
          ServiceLoader.load(TableFormat.class, TableFormat.class.getClassLoader())) {
        found.add(format);
      }
      return new TableFormats(found);
    }
  }
}
