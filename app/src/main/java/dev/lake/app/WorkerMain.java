package dev.lake.app;

import static java.util.Objects.requireNonNull;

import dev.lake.core.job.JobQueue;
import dev.lake.core.job.ResultLayout;
import dev.lake.durable.JobProcessor;
import dev.lake.durable.WorkerConfig;
import dev.lake.durable.WorkerRunner;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/lake worker}, and the settings of the Lambda handler: the durable-tier worker of an
 * AWS deployment, built through {@link LakeRuntime} from flags or their {@code LAKE_*} variables
 * (the Lambda has only the variables). It polls the SQS job queue with {@code --worker-threads}
 * threads until stopped (SIGTERM/Ctrl-C), running the same {@link JobProcessor} as the Lambda.
 */
@Command(
    name = "lake worker",
    mixinStandardHelpOptions = true,
    modelTransformer = FormatFlags.class,
    description = "Run durable-tier jobs from the SQS job queue (the Lambda's code, as a process).")
public final class WorkerMain implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Mixin RegistryOptions registry;

  @Mixin EngineOptions engine;

  @Mixin AwsOptions aws;

  @Mixin WorkerOptions worker;

  // the worker command's own: serve's in-process workers are --durable-workers
  @Option(
      names = "--worker-threads",
      defaultValue = "2",
      description = "Jobs one bin/lake worker process runs at a time (1 - 256).")
  int threads;

  /** {@code --worker-threads}, validated against its documented bounds. */
  int threads() {
    if (threads < 1 || threads > 256) {
      throw new IllegalArgumentException("--worker-threads must be in 1 - 256: " + threads);
    }
    return threads;
  }

  /** A built worker: the runtime it owns, its processor, the queue it serves and its settings. */
  public record Process(
      LakeRuntime runtime, JobProcessor processor, JobQueue queue, WorkerConfig config, int threads)
      implements AutoCloseable {
    public Process {
      requireNonNull(runtime, "runtime is null");
      requireNonNull(processor, "processor is null");
      requireNonNull(queue, "queue is null");
      requireNonNull(config, "config is null");
    }

    @Override
    public void close() {
      try {
        processor.close();
      } finally {
        runtime.close();
      }
    }
  }

  /** What the flags configure, validated (a value out of bounds throws, naming it). */
  record Settings(RuntimeConfig runtime, WorkerConfig worker, int threads, ResultLayout layout) {}

  /** The settings these options describe; nothing is started. */
  Settings settings() {
    RuntimeConfig config =
        RuntimeConfig.builder(
                registry.source(), new KeySource.Kms(aws.keyRingPrefix()), engine.engineConfig())
            .formatSettings(FormatFlags.settings(spec))
            .aws(Optional.of(aws.durable()))
            .sandbox(engine.sandboxConfig())
            .build();
    return new Settings(config, worker.config(), threads(), aws.resultLayout());
  }

  /** Builds the worker these options describe. */
  public Process build() {
    Settings settings = settings();
    RuntimeConfig config = settings.runtime();
    WorkerConfig workerConfig = settings.worker();
    LakeRuntime runtime = LakeRuntime.start(config);
    try {
      LakeRuntime.AwsDurablePorts ports = runtime.awsDurablePorts().orElseThrow();
      JobProcessor processor =
          runtime.processor(
              ports.jobs(),
              ports.queue(),
              ports.results(),
              workerConfig,
              settings.layout(),
              Clock.systemUTC(),
              workerId());
      return new Process(runtime, processor, ports.queue(), workerConfig, settings.threads());
    } catch (RuntimeException e) {
      runtime.close();
      throw e;
    }
  }

  /** The worker the environment describes (the Lambda handler's constructor). */
  public static Process fromEnvironment(Map<String, String> env) {
    WorkerMain options = new WorkerMain();
    EnvDefaults.install(new CommandLine(options), env, "lake worker").parseArgs();
    return options.build();
  }

  /** The command line with the {@code LAKE_*} convention and one-line configuration errors. */
  public static CommandLine commandLine(Map<String, String> env) {
    return EnvDefaults.install(new CommandLine(new WorkerMain()), env, "lake worker");
  }

  public static void main(String[] args) {
    LakeCli.quietLibraries(Boolean.getBoolean("lake.verbose"));
    System.exit(commandLine(System.getenv()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    Process process = build();
    WorkerRunner runner =
        new WorkerRunner(process.queue(), process.processor(), process.config(), Clock.systemUTC())
            .start(process.threads());
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              runner.close();
              process.close();
              stopped.countDown();
            },
            "lake-worker-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    PrintWriter out = spec.commandLine().getOut();
    out.println("lake worker ready: " + process.threads() + " threads polling the job queue");
    out.flush();
    stopped.await();
    return 0;
  }

  private static String workerId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "worker";
    }
    return (host + "-" + UUID.randomUUID().toString().substring(0, 8))
        .replaceAll("[^A-Za-z0-9_.-]", "");
  }
}
