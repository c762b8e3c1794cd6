package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.Registry;
import dev.lake.core.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The shared {@link Registry} of AWS mode: one DynamoDB item per table (partition key {@code name};
 * {@code format}, {@code location}, {@code options} as a map of strings when there are any, {@code
 * incarnation}, {@code registeredAt}; an item without {@code format}, as written before formats
 * were named, is a {@link Registry#LEGACY_FORMAT} table; an item such old processes would misread
 * has {@link Entry#legacyLocation} under {@code location} and its location under {@code
 * formatLocation}), read by every front-door replica and worker. Registration is a conditional put
 * ({@code attribute_not_exists}) with a fresh random incarnation, so two operators racing on one
 * name get one winner and a re-registered table never reuses an incarnation (tickets sealed for the
 * old one fail closed). Reads are consistent; the request path caches them for its freshness
 * window.
 *
 * <p>A register whose outcome is unknown (a client-side failure after sending) is settled by a
 * consistent re-read: our incarnation there means it applied.
 */
public final class DynamoDbRegistry implements Registry {
  private static final int UNKNOWN_ATTEMPTS = 3;

  /** The location of an entry that is not {@link Entry#legacyReadable}. */
  private static final String FORMAT_LOCATION = "formatLocation";

  private final DynamoDbClient dynamo;
  private final String table;

  public DynamoDbRegistry(DynamoDbClient dynamo, String table) {
    this.dynamo = requireNonNull(dynamo, "dynamo is null");
    this.table = requireNonNull(table, "table is null");
  }

  /** Creates the registry table (on-demand billing) for emulators and development accounts. */
  public static void createTable(DynamoDbClient dynamo, String table) {
    DynamoDbTables.create(dynamo, table, "name");
  }

  @Override
  public Entry register(TableRef ref, String format, String location, Map<String, String> options) {
    Entry entry = Entry.fresh(ref, format, location, options);
    for (int i = 0; i < UNKNOWN_ATTEMPTS; i++) {
      try {
        dynamo.putItem(
            b ->
                b.tableName(table)
                    .item(item(entry))
                    .conditionExpression("attribute_not_exists(#n)")
                    .expressionAttributeNames(Map.of("#n", "name")));
        return entry;
      } catch (ConditionalCheckFailedException e) {
        throw alreadyRegistered(ref);
      } catch (SdkClientException e) {
        Optional<Entry> current = findQuietly(ref);
        if (current.isPresent()) {
          if (current.get().incarnation().equals(entry.incarnation())) {
            return current.get();
          }
          throw alreadyRegistered(ref);
        }
      } catch (SdkException e) {
        throw unavailable(e);
      }
    }
    throw new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The table registry did not answer; register again");
  }

  @Override
  public boolean unregister(TableRef ref) {
    requireNonNull(ref, "ref is null");
    try {
      var old =
          dynamo
              .deleteItem(b -> b.tableName(table).key(key(ref)).returnValues(ReturnValue.ALL_OLD))
              .attributes();
      return old != null && !old.isEmpty();
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  @Override
  public Optional<Entry> find(TableRef ref) {
    requireNonNull(ref, "ref is null");
    try {
      var item = dynamo.getItem(b -> b.tableName(table).key(key(ref)).consistentRead(true)).item();
      return item == null || item.isEmpty() ? Optional.empty() : Optional.of(fromItem(item));
    } catch (SdkException e) {
      throw unavailable(e);
    }
  }

  @Override
  public List<Entry> list() {
    List<Entry> entries = new ArrayList<>();
    Map<String, AttributeValue> start = null;
    try {
      do {
        Map<String, AttributeValue> from = start;
        ScanResponse page =
            dynamo.scan(
                b -> {
                  b.tableName(table).consistentRead(true);
                  if (from != null) {
                    b.exclusiveStartKey(from);
                  }
                });
        page.items().forEach(i -> entries.add(fromItem(i)));
        start = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : null;
      } while (start != null && !start.isEmpty());
    } catch (SdkException e) {
      throw unavailable(e);
    }
    return List.copyOf(entries);
  }

  private Optional<Entry> findQuietly(TableRef ref) {
    try {
      return find(ref);
    } catch (LakeException e) {
      return Optional.empty();
    }
  }

  private static Map<String, AttributeValue> key(TableRef ref) {
    return Map.of("name", AttributeValue.fromS(ref.toString()));
  }

  private static Map<String, AttributeValue> item(Entry e) {
    Map<String, AttributeValue> item = new HashMap<>();
    item.put("name", AttributeValue.fromS(e.ref().toString()));
    item.put("format", AttributeValue.fromS(e.format()));
    item.put("location", AttributeValue.fromS(e.legacyLocation()));
    if (!e.legacyReadable()) {
      item.put(FORMAT_LOCATION, AttributeValue.fromS(e.location()));
    }
    if (!e.options().isEmpty()) {
      Map<String, AttributeValue> options = new HashMap<>();
      e.options().forEach((k, v) -> options.put(k, AttributeValue.fromS(v)));
      item.put("options", AttributeValue.fromM(options));
    }
    item.put("incarnation", AttributeValue.fromS(e.incarnation()));
    item.put("registeredAt", AttributeValue.fromN(Long.toString(e.registeredAtMillis())));
    return item;
  }

  private static Entry fromItem(Map<String, AttributeValue> item) {
    Map<String, String> options = new HashMap<>();
    AttributeValue stored = item.get("options");
    if (stored != null && stored.hasM()) {
      stored.m().forEach((k, v) -> options.put(k, v.s()));
    }
    AttributeValue format = item.get("format");
    return new Entry(
        TableRef.parse(item.get("name").s()),
        // items written before the format attribute existed are Lance tables
        format == null ? LEGACY_FORMAT : format.s(),
        // an item old processes would misread keeps its location out of their sight
        (item.containsKey(FORMAT_LOCATION) ? item.get(FORMAT_LOCATION) : item.get("location")).s(),
        options,
        item.get("incarnation").s(),
        Long.parseLong(item.get("registeredAt").n()));
  }

  private static LakeException alreadyRegistered(TableRef ref) {
    return new LakeException(ErrorCode.INVALID_ARGUMENT, "Table " + ref + " is already registered");
  }

  private static LakeException unavailable(SdkException e) {
    return new LakeException(
        ErrorCode.EXTERNAL_UNAVAILABLE, "The table registry is unavailable; retry later", e);
  }
}
