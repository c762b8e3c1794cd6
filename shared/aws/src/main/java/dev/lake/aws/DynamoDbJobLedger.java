package dev.lake.aws;

import static java.util.Objects.requireNonNull;

import dev.lake.core.job.Job;
import dev.lake.core.job.JobLimits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

/**
 * The accounting of {@link JobLimits} in the job table itself, as two kinds of items whose keys no
 * job id can take ({@code #} is outside the job-id alphabet): {@code #tenant:<tenant>} holds the
 * string sets {@code active} and {@code running} of that tenant's job ids, {@code #running} the set
 * {@code running} of every running job id. Each job write carries the two set updates in the same
 * transaction ({@link #updates}): {@code ADD}/{@code DELETE} of the job id following the state
 * written, which is idempotent, guarded by {@code size(set) < :max} where the id would be added.
 *
 * <p>Pruning: a record that disappears without a terminal write (TTL reaps an expired job whose
 * message was lost) would hold its place forever; when a write is refused, the sets involved are
 * checked against the records at most once per {@link #PRUNE_EVERY} per process, and each stale id
 * is removed in a transaction conditioned on the record still being what was read. A record that is
 * still there but expired and not terminal (its message dead-lettered, its give-up write lost) is
 * ended instead (FAILED {@code DEADLINE_EXCEEDED} by the store's compare-and-set), which releases
 * its places without waiting for TTL.
 */
final class DynamoDbJobLedger {
  static final String GLOBAL = "#running";
  static final Duration PRUNE_EVERY = Duration.ofMinutes(1);

  private final DynamoDbClient dynamo;
  private final String table;
  private final Clock clock;
  private final Map<String, Instant> lastPruned = new ConcurrentHashMap<>();

  DynamoDbJobLedger(DynamoDbClient dynamo, String table, Clock clock) {
    this.dynamo = requireNonNull(dynamo, "dynamo is null");
    this.table = requireNonNull(table, "table is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  static String tenantKey(String tenant) {
    return "#tenant:" + tenant;
  }

  /** The tenant and global set updates that go with writing {@code next}, in this order. */
  List<TransactWriteItem> updates(Job next, JobLimits limits) {
    boolean active = JobLimits.active(next.state());
    boolean running = JobLimits.running(next.state());
    Sets tenant = new Sets(tenantKey(next.tenant()), next.id());
    tenant.place("active", active, limits.maxActivePerTenant());
    tenant.place("running", running, limits.maxRunningPerTenant());
    Sets global = new Sets(GLOBAL, next.id());
    global.place("running", running, limits.maxRunning());
    return List.of(tenant.item(), global.item());
  }

  /**
   * Which bound refused {@code next}, read consistently now; empty if none is full any more (the
   * place was freed meanwhile: write again).
   */
  Optional<JobLimits.Reached> reached(Job next, JobLimits limits) {
    Map<String, AttributeValue> tenant = item(tenantKey(next.tenant()));
    return limits.refuses(
        next, ids(tenant, "active"), ids(tenant, "running"), () -> ids(item(GLOBAL), "running"));
  }

  JobLimits.Usage usage(String tenant) {
    Map<String, AttributeValue> t = item(tenantKey(tenant));
    return new JobLimits.Usage(
        ids(t, "active").size(), ids(t, "running").size(), ids(item(GLOBAL), "running").size());
  }

  /**
   * Removes stale ids from the sets a refused {@code reached} names, unless they were checked less
   * than {@link #PRUNE_EVERY} ago; returns whether any id was removed.
   */
  boolean prune(
      JobLimits.Reached reached,
      java.util.function.Function<String, Optional<Job>> find,
      java.util.function.Predicate<Job> end) {
    boolean global = reached.limit() == JobLimits.Limit.RUNNING;
    String key = global ? GLOBAL : tenantKey(reached.tenant());
    String attribute = reached.limit() == JobLimits.Limit.ACTIVE_PER_TENANT ? "active" : "running";
    Instant now = clock.instant();
    Instant last = lastPruned.get(key + "/" + attribute);
    if (last != null && last.plus(PRUNE_EVERY).isAfter(now)) {
      return false;
    }
    lastPruned.put(key + "/" + attribute, now);
    boolean removed = false;
    for (String id : ids(item(key), attribute)) {
      Optional<Job> job = find.apply(id);
      if (job.isPresent() && !job.get().state().terminal() && job.get().expired(now)) {
        // nothing will run it any more (its message is gone, or will fail it on sight): end it,
        // a terminal write that releases all its places at once, long before TTL reaps it
        removed |= end.test(job.get());
        continue;
      }
      boolean stale =
          job.isEmpty()
              || (attribute.equals("active")
                  ? !JobLimits.active(job.get().state())
                  : !JobLimits.running(job.get().state()));
      if (stale) {
        removed |= removeStale(key, attribute, id, job);
      }
    }
    return removed;
  }

  /** Deletes {@code id} from one set iff its record is still missing, or still at its version. */
  private boolean removeStale(String key, String attribute, String id, Optional<Job> seen) {
    ConditionCheck.Builder check =
        ConditionCheck.builder().tableName(table).key(Map.of("id", AttributeValue.fromS(id)));
    if (seen.isEmpty()) {
      check.conditionExpression("attribute_not_exists(id)");
    } else {
      check
          .conditionExpression("#v = :v")
          .expressionAttributeNames(Map.of("#v", "version"))
          .expressionAttributeValues(
              Map.of(":v", AttributeValue.fromN(Long.toString(seen.get().version()))));
    }
    Update delete =
        Update.builder()
            .tableName(table)
            .key(Map.of("id", AttributeValue.fromS(key)))
            .updateExpression("DELETE #s :ids")
            .expressionAttributeNames(Map.of("#s", attribute))
            .expressionAttributeValues(Map.of(":ids", AttributeValue.fromSs(List.of(id))))
            .build();
    try {
      dynamo.transactWriteItems(
          b ->
              b.transactItems(
                  TransactWriteItem.builder().conditionCheck(check.build()).build(),
                  TransactWriteItem.builder().update(delete).build()));
      return true;
    } catch (TransactionCanceledException e) {
      return false; // the record changed meanwhile: its own write keeps the set right
    }
  }

  private Map<String, AttributeValue> item(String key) {
    Map<String, AttributeValue> item =
        dynamo
            .getItem(
                b ->
                    b.tableName(table)
                        .key(Map.of("id", AttributeValue.fromS(key)))
                        .consistentRead(true))
            .item();
    return item == null ? Map.of() : item;
  }

  private static Set<String> ids(Map<String, AttributeValue> item, String attribute) {
    AttributeValue v = item.get(attribute);
    return v == null || !v.hasSs() ? Set.of() : Set.copyOf(v.ss());
  }

  /** One accounting item's update: ADD/DELETE of one id in some of its sets, guarded on ADD. */
  private final class Sets {
    private final String key;
    private final List<String> add = new ArrayList<>();
    private final List<String> delete = new ArrayList<>();
    private final List<String> guards = new ArrayList<>();
    private final Map<String, String> names = new HashMap<>();
    private final Map<String, AttributeValue> values = new HashMap<>();

    Sets(String key, String id) {
      this.key = key;
      values.put(":ids", AttributeValue.fromSs(List.of(id)));
    }

    void place(String attribute, boolean in, int max) {
      String name = "#" + attribute;
      names.put(name, attribute);
      if (!in) {
        delete.add(name + " :ids");
        return;
      }
      add.add(name + " :ids");
      if (max < Integer.MAX_VALUE) {
        String bound = ":max_" + attribute;
        values.put(bound, AttributeValue.fromN(Integer.toString(max)));
        values.put(":id", AttributeValue.fromS(values.get(":ids").ss().get(0)));
        guards.add(
            "(attribute_not_exists("
                + name
                + ") OR contains("
                + name
                + ", :id) OR size("
                + name
                + ") < "
                + bound
                + ")");
      }
    }

    TransactWriteItem item() {
      StringBuilder expression = new StringBuilder();
      if (!add.isEmpty()) {
        expression.append("ADD ").append(String.join(", ", add));
      }
      if (!delete.isEmpty()) {
        expression.append(expression.length() > 0 ? " " : "").append("DELETE ");
        expression.append(String.join(", ", delete));
      }
      Update.Builder update =
          Update.builder()
              .tableName(table)
              .key(Map.of("id", AttributeValue.fromS(key)))
              .updateExpression(expression.toString())
              .expressionAttributeNames(names)
              .expressionAttributeValues(values);
      if (!guards.isEmpty()) {
        update.conditionExpression(String.join(" AND ", guards));
      }
      return TransactWriteItem.builder().update(update.build()).build();
    }
  }
}
