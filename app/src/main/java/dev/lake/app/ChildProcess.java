package dev.lake.app;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One lake JVM started by {@code bin/lake aws-local} (the front door or a worker): this JVM's
 * classpath and java binary, the given {@code LAKE_*} environment, output appended to a log file.
 * Readiness is a line in that log, polled with a deadline.
 */
final class ChildProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;
  private final long logStart;

  private ChildProcess(String name, Process process, Path log, long logStart) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.logStart = logStart;
  }

  /** Starts {@code mainClass args} with {@code env} added to this process's environment. */
  static ChildProcess start(
      String name, String mainClass, List<String> args, Map<String, String> env, Path log) {
    requireNonNull(env, "env is null");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>();
    command.add(java);
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Xmx1g");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(env);
    try {
      long start = Files.exists(log) ? Files.size(log) : 0;
      return new ChildProcess(name, builder.start(), log, start);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the " + name, e);
    }
  }

  /**
   * Waits until the log (written since start) has a line matching {@code ready}; returns the match.
   * Fails if the process exits first or the deadline passes, naming the log.
   */
  Matcher awaitLine(Pattern ready, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < deadline) {
      Optional<Matcher> found = find(ready);
      if (found.isPresent()) {
        return found.get();
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the " + name + " exited with " + process.exitValue() + "; see " + log + tail());
      }
      try {
        TimeUnit.MILLISECONDS.sleep(50); // polling a log file with a deadline
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new IllegalStateException(
        "the " + name + " was not ready within " + max + "; see " + log + tail());
  }

  /** The log's last lines, for an error message that outlives a temporary directory. */
  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return ":\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  private Optional<Matcher> find(Pattern pattern) {
    try {
      byte[] bytes = Files.readAllBytes(log);
      String text =
          new String(
              bytes,
              (int) Math.min(logStart, bytes.length),
              (int) Math.max(0, bytes.length - logStart),
              StandardCharsets.UTF_8);
      for (String line : text.split("\n")) {
        Matcher m = pattern.matcher(line);
        if (m.find()) {
          return Optional.of(m);
        }
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  long pid() {
    return process.pid();
  }

  boolean alive() {
    return process.isAlive();
  }

  /** SIGKILL: the process gets no chance to clean up (a crashed worker or container). */
  void kill() {
    process.destroyForcibly();
    awaitExit();
  }

  /** SIGTERM, then SIGKILL after 10 s. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          kill();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }

  private void awaitExit() {
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
