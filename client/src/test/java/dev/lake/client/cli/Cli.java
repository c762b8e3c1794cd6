package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs the client command line as a user does: a separate JVM with exactly the client's runtime
 * classpath (the module's classes plus {@code target/runtime-classpath.txt}), the flags {@code
 * bin/lake} passes, stdin empty; stdout, stderr and the exit code are captured.
 */
final class Cli {
  private static final long TIMEOUT_SECONDS = 180;

  private Cli() {}

  /** What a finished command printed and returned. */
  record Result(int exit, String stdout, String stderr) {
    List<String> errLines() {
      return stderr.lines().toList();
    }
  }

  /** A started command whose output is being drained. */
  record Running(Process process, CompletableFuture<String> out, CompletableFuture<String> err) {
    Result finish() {
      try {
        assertThat(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS))
            .as("command finished within %d s", TIMEOUT_SECONDS)
            .isTrue();
        return new Result(process.exitValue(), out.join(), err.join());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } finally {
        process.destroyForcibly();
      }
    }
  }

  static Result run(Path workDir, Map<String, String> env, String... args) {
    return start(workDir, env, args).finish();
  }

  /**
   * Runs a command whose standard output is read for {@code bytes} bytes and then closed, as {@code
   * | head -c N} does; the command must then end by itself.
   */
  static Result runReadingOnly(int bytes, Path workDir, Map<String, String> env, String... args) {
    Process p = launch(workDir, env, args);
    CompletableFuture<String> err = drain(p.getErrorStream());
    try (InputStream out = p.getInputStream()) {
      String head = new String(out.readNBytes(bytes), StandardCharsets.UTF_8);
      out.close();
      return new Running(p, CompletableFuture.completedFuture(head), err).finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Running start(Path workDir, Map<String, String> env, String... args) {
    Process p = launch(workDir, env, args);
    return new Running(p, drain(p.getInputStream()), drain(p.getErrorStream()));
  }

  private static Process launch(Path workDir, Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Xmx512m");
    command.add("-cp");
    command.add(classpath());
    command.add(ClientCli.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("LAKE_"));
    builder.environment().putAll(env);
    builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    try {
      return builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
          } catch (IOException e) {
            return "";
          }
        },
        DRAINERS);
  }

  private static final ExecutorService DRAINERS =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "cli-output");
            t.setDaemon(true);
            return t;
          });

  private static String classpath() {
    try {
      Path module = Path.of("").toAbsolutePath();
      String deps =
          Files.readString(module.resolve("target/runtime-classpath.txt"), StandardCharsets.UTF_8)
              .strip();
      return module.resolve("target/classes") + File.pathSeparator + deps;
    } catch (IOException e) {
      throw new UncheckedIOException("run the build through Maven (runtime-classpath.txt)", e);
    }
  }
}
