package dev.lake.infra;

/**
 * The environment variables through which the stack hands resource names and settings to the code.
 * The convention shared with the runtime: command-line flag {@code --foo-bar} is environment
 * variable {@code LAKE_FOO_BAR} (one definition, read by the composition root of {@code bin/lake
 * serve} and of the worker). Only names live here, never values that are secret.
 */
final class LakeEnv {
  // resources shared by the front door and the worker (--result-bucket, --job-table, ...)
  static final String RESULT_BUCKET = "LAKE_RESULT_BUCKET";
  static final String JOB_TABLE = "LAKE_JOB_TABLE";
  static final String JOB_QUEUE_URL = "LAKE_JOB_QUEUE_URL";
  static final String KMS_KEY_ID = "LAKE_KMS_KEY_ID";
  static final String REGISTRY_TABLE = "LAKE_REGISTRY_TABLE";
  static final String AWS_REGION = "LAKE_AWS_REGION";
  static final String RESULT_PREFIX = "LAKE_RESULT_PREFIX";
  static final String KEY_RING_PREFIX = "LAKE_KEY_RING_PREFIX";

  // the engine's spill directory (--spill-dir): both sides; only /tmp is writable in Lambda
  static final String SPILL_DIR = "LAKE_SPILL_DIR";

  // the engine's memory (--engine-memory-mb): both sides; the engine runs in engine processes
  // (docs/security.md "Engine processes"), each of which may grow to its ceiling, so the engine
  // memory and the ceilings are set together below the task's or function's memory
  static final String ENGINE_MEMORY_MB = "LAKE_ENGINE_MEMORY_MB";

  // one engine process's memory ceiling (--engine-process-ceiling-mb) and the pool count
  // (--engine-memory-pools, one engine process each)
  static final String ENGINE_PROCESS_CEILING_MB = "LAKE_ENGINE_PROCESS_CEILING_MB";
  static final String ENGINE_MEMORY_POOLS = "LAKE_ENGINE_MEMORY_POOLS";

  // the Iceberg data-file cache DuckDB reads (--iceberg-file-cache-dir/-mb): both sides
  static final String ICEBERG_FILE_CACHE_DIR = "LAKE_ICEBERG_FILE_CACHE_DIR";
  static final String ICEBERG_FILE_CACHE_MB = "LAKE_ICEBERG_FILE_CACHE_MB";

  // where table data may be read from (--data-locations): both sides, prefix-scoped grants
  static final String DATA_LOCATIONS = "LAKE_DATA_LOCATIONS";

  // the optional Iceberg REST federation (--iceberg-rest/-allow/-warehouse): both sides
  static final String ICEBERG_REST = "LAKE_ICEBERG_REST";
  static final String ICEBERG_ALLOW = "LAKE_ICEBERG_ALLOW";
  static final String ICEBERG_WAREHOUSE = "LAKE_ICEBERG_WAREHOUSE";

  /**
   * The catalog's OAuth2 {@code client_id:secret} (--iceberg-oauth2-credential): an ECS secret of
   * the front door; the worker's function configuration gets it by CloudFormation dynamic
   * reference.
   */
  static final String ICEBERG_OAUTH2_CREDENTIAL = "LAKE_ICEBERG_OAUTH2_CREDENTIAL";

  /**
   * The task's TLS certificate chain and PKCS#8 key (PEM), injected by ECS from the secret named by
   * the {@code TaskTlsSecretArn} parameter (JSON keys {@code cert}, {@code key}); the entrypoint
   * writes them to private files, points {@code LAKE_TLS_CERT}/{@code LAKE_TLS_KEY} at them and
   * removes these variables before the JVM starts.
   */
  static final String TLS_CERT_PEM = "LAKE_TLS_CERT_PEM";

  static final String TLS_KEY_PEM = "LAKE_TLS_KEY_PEM";

  // the front door (bin/lake serve)
  static final String HOST = "LAKE_HOST";
  static final String PORT = "LAKE_PORT";
  static final String DURABLE = "LAKE_DURABLE";
  static final String METRICS_HOST = "LAKE_METRICS_HOST";
  static final String METRICS_PORT = "LAKE_METRICS_PORT";

  /**
   * The principals secret's ARN: {@code serve} reads the secret itself and polls its version, so a
   * new version (a rotated token) takes effect without a redeploy.
   */
  static final String PRINCIPALS_SECRET = "LAKE_PRINCIPALS_SECRET";

  // the worker (Lambda)
  static final String WORKER_MAX_EXECUTION_SECONDS = "LAKE_WORKER_MAX_EXECUTION_SECONDS";
  static final String WORKER_LAMBDA_MARGIN_SECONDS = "LAKE_WORKER_LAMBDA_MARGIN_SECONDS";
  static final String WORKER_MAX_FAN_OUT = "LAKE_WORKER_MAX_FAN_OUT";

  /** Object-key prefixes in the result bucket; they must equal the runtime's defaults. */
  static final String RESULTS = "results";

  static final String TICKET_KEYS = "ticket-keys";

  private LakeEnv() {}
}
