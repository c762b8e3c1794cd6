package dev.lake.client.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** A duration as a terminal user writes it: a whole number and a unit, {@code 500ms 30s 5m 1h}. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern VALUE = Pattern.compile("([0-9]{1,9})(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher m = VALUE.matcher(value.strip());
    if (!m.matches()) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a duration such as 500ms, 30s, 5m or 1h");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }
}
