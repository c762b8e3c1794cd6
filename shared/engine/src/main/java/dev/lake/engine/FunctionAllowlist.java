package dev.lake.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The functions a statement may call, read once from {@code sql-functions.txt} beside this class:
 * scalar, aggregate and window functions lake admits. Everything else is denied, so catalog and
 * introspection functions a newer DuckDB adds are rejected without anyone having to list them.
 */
final class FunctionAllowlist {
  private static final String RESOURCE = "sql-functions.txt";

  /** Names of one section: {@code scalar}, {@code aggregate} or {@code window}. */
  private static final Map<String, Set<String>> SECTIONS = load();

  private FunctionAllowlist() {}

  /** A function call ({@code FUNCTION} node): a scalar or an aggregate lake admits. */
  static boolean callAllowed(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return section("scalar").contains(n) || section("aggregate").contains(n);
  }

  /** A window function ({@code WINDOW} node): a window function or an aggregate over a window. */
  static boolean windowAllowed(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return section("window").contains(n) || section("aggregate").contains(n);
  }

  static Set<String> section(String name) {
    Set<String> s = SECTIONS.get(name);
    if (s == null) {
      throw new IllegalStateException(RESOURCE + " has no [" + name + "] section");
    }
    return s;
  }

  private static Map<String, Set<String>> load() {
    Map<String, Set<String>> sections = new HashMap<>();
    try (InputStream in = FunctionAllowlist.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      Set<String> current = null;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        int hash = line.indexOf('#');
        String text = (hash < 0 ? line : line.substring(0, hash)).strip();
        if (text.startsWith("[") && text.endsWith("]")) {
          current =
              sections.computeIfAbsent(text.substring(1, text.length() - 1), k -> new HashSet<>());
        } else if (!text.isEmpty()) {
          if (current == null) {
            throw new IllegalStateException(RESOURCE + ": names before the first [section]");
          }
          for (String name : text.split("\\s+")) {
            current.add(name.toLowerCase(Locale.ROOT));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    sections.replaceAll((k, v) -> Set.copyOf(v));
    return Map.copyOf(sections);
  }
}
