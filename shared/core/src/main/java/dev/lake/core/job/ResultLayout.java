package dev.lake.core.job;

import static java.util.Objects.requireNonNull;

import io.soabase.recordbuilder.core.RecordBuilder;

/**
 * Where durable results live and how they are cut: the one definition shared by the front door
 * (which reads results and hands out part tickets) and every worker (which writes them). A process
 * builds it once (the prefix from {@code --result-prefix} / {@code LAKE_RESULT_PREFIX}) and hands
 * the same record to both sides, so they cannot disagree.
 *
 * @param prefix object-key prefix of all results, {@code ""} for the store root (default {@code
 *     results}; local mode uses {@code ""})
 * @param bounds part, message and lifetime bounds of results (default {@link
 *     ResultConfig#defaults()})
 */
@RecordBuilder
public record ResultLayout(
    @RecordBuilder.Initializer("DEFAULT_PREFIX") String prefix,
    @RecordBuilder.Initializer("DEFAULT_BOUNDS") ResultConfig bounds)
    implements ResultLayoutBuilder.With {
  public static final String DEFAULT_PREFIX = "results";
  public static final ResultConfig DEFAULT_BOUNDS = ResultConfig.defaults();

  public ResultLayout {
    requireNonNull(prefix, "prefix is null");
    requireNonNull(bounds, "bounds is null");
    if (!prefix.isEmpty() && !prefix.matches("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*")) {
      throw new IllegalArgumentException(
          "resultPrefix must be empty or a relative key prefix: " + prefix);
    }
  }

  public static ResultLayout defaults() {
    return ResultLayoutBuilder.builder().build();
  }

  /** The directory of one attempt's result: {@code <prefix>/<tenant>/<queryId>}. */
  public String directory(String tenant, String queryId) {
    return directory(prefix, tenant, queryId);
  }

  /** The result directory of one attempt: {@code <resultPrefix>/<tenant>/<queryId>}. */
  public static String directory(String resultPrefix, String tenant, String queryId) {
    String dir = tenant + "/" + queryId;
    return resultPrefix.isEmpty() ? dir : resultPrefix + "/" + dir;
  }
}
