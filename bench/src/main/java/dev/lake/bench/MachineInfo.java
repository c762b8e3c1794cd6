package dev.lake.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The machine a run came from: figures are only comparable on the same kind of machine. */
final class MachineInfo {
  private MachineInfo() {}

  static Map<String, String> describe() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    m.put("nproc", String.valueOf(Runtime.getRuntime().availableProcessors()));
    m.put("cpu", procLine(Path.of("/proc/cpuinfo"), "model name").orElse("unknown"));
    m.put(
        "memory",
        procLine(Path.of("/proc/meminfo"), "MemTotal")
            .map(v -> String.format("%.1f GiB", Long.parseLong(v.split("\\s+")[0]) / 1048576.0))
            .orElse("unknown"));
    m.put(
        "java",
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")");
    m.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    m.put("load average at start", loadAverage());
    return m;
  }

  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** The 1-minute load average, e.g. {@code 2.61}, or {@code unknown}. */
  static String oneMinuteLoad() {
    return loadAverage().split(" ")[0];
  }

  private static Optional<String> procLine(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(key)) {
          return Optional.of(line.substring(line.indexOf(':') + 1).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }
}
