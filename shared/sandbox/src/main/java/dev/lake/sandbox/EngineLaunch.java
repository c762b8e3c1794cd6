package dev.lake.sandbox;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How to start one engine process: a Java main class on this JVM's own class path (so the child
 * runs exactly the code of its parent) with its arguments. The main receives the socket path to
 * listen on as its first argument, then {@code args}, and must call {@link EngineHost#serve} with
 * its stdin as the parent stream.
 *
 * @param mainClass the engine process's main class
 * @param args arguments after the socket path (e.g. where its settings are)
 * @param env variables added to the inherited environment
 * @param settings one line the process reads first from its stdin (its settings, e.g. as JSON; may
 *     hold secrets, so it is never put on the command line or in a file); empty for none
 */
public record EngineLaunch(
    String mainClass, List<String> args, Map<String, String> env, String settings) {
  public EngineLaunch {
    requireNonNull(mainClass, "mainClass is null");
    args = List.copyOf(requireNonNull(args, "args is null"));
    env = Map.copyOf(requireNonNull(env, "env is null"));
    requireNonNull(settings, "settings is null");
    if (settings.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("the settings line must not contain a line break");
    }
  }

  /**
   * The command line: this JVM's {@code java}, its class path, a heap of {@code heapBytes}, the
   * Arrow flag, {@code temp} as its {@code java.io.tmpdir} (DuckDB and Lance extract their native
   * libraries there on every start, 60 and 173 MB, and a killed process never deletes them: the
   * supervisor removes the directory when the process exits), then the main class, {@code socket}
   * and the arguments.
   */
  List<String> command(Path socket, long heapBytes, Path temp) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + (heapBytes >> 20) + "m");
    command.add("-Djava.io.tmpdir=" + temp);
    command.add("-XX:+UseSerialGC");
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    command.add("-cp");
    command.add(classPath());
    command.add(mainClass);
    command.add(socket.toString());
    command.addAll(args);
    return command;
  }

  /**
   * This JVM's class path, plus the jars of any URL class loader the main class was loaded by (the
   * Lambda runtime loads the function's code with a class loader of its own, not from the class
   * path), so the child finds the same classes.
   */
  String classPath() {
    Set<String> entries =
        new LinkedHashSet<>(
            List.of(System.getProperty("java.class.path", "").split(File.pathSeparator)));
    try {
      ClassLoader loader =
          Class.forName(mainClass, false, Thread.currentThread().getContextClassLoader())
              .getClassLoader();
      for (; loader != null; loader = loader.getParent()) {
        if (loader instanceof URLClassLoader urls) {
          for (URL url : urls.getURLs()) {
            if ("file".equals(url.getProtocol())) {
              entries.add(Path.of(url.toURI()).toString());
            }
          }
        }
      }
    } catch (ClassNotFoundException | URISyntaxException | RuntimeException e) {
      // the class path alone; a child that cannot find its main class fails to start, loudly
    }
    entries.remove("");
    return String.join(File.pathSeparator, entries);
  }
}
