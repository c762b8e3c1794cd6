package dev.lake.core.local;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lake.core.Json;
import dev.lake.core.job.Job;
import dev.lake.core.job.JobLimits;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The embedded job store's accounting ({@link JobLimits}): per tenant the ids of its active and of
 * its running jobs, and the ids of all running jobs. Not thread-safe; {@link FileJobStore} uses it
 * under its lock and keeps it in one JSON file next to the job records.
 */
final class JobLedger {
  private final Map<String, Set<String>> active = new TreeMap<>();
  private final Map<String, Set<String>> running = new TreeMap<>();

  /** The bound {@code next} would exceed if written, or empty. */
  Optional<JobLimits.Reached> check(Job next, JobLimits limits) {
    return limits.refuses(
        next, set(active, next.tenant()), set(running, next.tenant()), this::allRunning);
  }

  /** The ids the set that refused {@code reached} holds (a copy). */
  Set<String> holders(JobLimits.Reached reached) {
    return Set.copyOf(
        switch (reached.limit()) {
          case ACTIVE_PER_TENANT -> set(active, reached.tenant());
          case RUNNING_PER_TENANT -> set(running, reached.tenant());
          case RUNNING -> allRunning();
        });
  }

  /** Records that {@code job} is now stored as it is. */
  void apply(Job job) {
    place(active, job.tenant(), job.id(), JobLimits.active(job.state()));
    place(running, job.tenant(), job.id(), JobLimits.running(job.state()));
  }

  /** Forgets a job whose record was deleted. */
  void remove(Job job) {
    place(active, job.tenant(), job.id(), false);
    place(running, job.tenant(), job.id(), false);
  }

  JobLimits.Usage usage(String tenant) {
    return new JobLimits.Usage(
        set(active, tenant).size(), set(running, tenant).size(), allRunning().size());
  }

  private Set<String> allRunning() {
    Set<String> all = new TreeSet<>();
    running.values().forEach(all::addAll);
    return all;
  }

  private static Set<String> set(Map<String, Set<String>> sets, String tenant) {
    return sets.getOrDefault(tenant, Set.of());
  }

  private static void place(Map<String, Set<String>> sets, String tenant, String id, boolean in) {
    if (in) {
      sets.computeIfAbsent(tenant, t -> new TreeSet<>()).add(id);
    } else if (sets.containsKey(tenant)) {
      sets.get(tenant).remove(id);
      if (sets.get(tenant).isEmpty()) {
        sets.remove(tenant);
      }
    }
  }

  byte[] toBytes() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.set("active", toJson(active));
    root.set("running", toJson(running));
    try {
      return Json.mapper().writeValueAsBytes(root);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the job ledger", e);
    }
  }

  static JobLedger fromBytes(byte[] bytes) throws IOException {
    JsonNode root = Json.mapper().readTree(bytes);
    JobLedger ledger = new JobLedger();
    fromJson(root.path("active"), ledger.active);
    fromJson(root.path("running"), ledger.running);
    return ledger;
  }

  private static ObjectNode toJson(Map<String, Set<String>> sets) {
    ObjectNode n = Json.mapper().createObjectNode();
    sets.forEach(
        (tenant, ids) -> {
          ArrayNode a = n.putArray(tenant);
          ids.forEach(a::add);
        });
    return n;
  }

  private static void fromJson(JsonNode n, Map<String, Set<String>> into) {
    requireNonNull(n, "n is null");
    n.fields()
        .forEachRemaining(
            e -> {
              Set<String> ids = new TreeSet<>();
              e.getValue().forEach(id -> ids.add(id.asText()));
              if (!ids.isEmpty()) {
                into.put(e.getKey(), ids);
              }
            });
  }
}
