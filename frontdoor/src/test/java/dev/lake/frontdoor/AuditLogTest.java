package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class AuditLogTest {
  @Test
  void iso_writesTheTimeExactlyAsInstantToString_acrossSecondsAndPrecisions() {
    // GIVEN one audit log, so consecutive times share (or change) the formatted second
    AuditLog log = new AuditLog(line -> {});
    List<Instant> times =
        List.of(
            Instant.parse("2026-12-02T02:29:14Z"),
            Instant.parse("2026-12-02T02:29:14.100Z"),
            Instant.parse("2026-12-02T02:29:14.000001Z"),
            Instant.parse("2026-12-02T02:29:14.123456789Z"),
            Instant.parse("2026-12-02T02:29:15.000000010Z"),
            Instant.parse("2026-12-31T23:59:59.999Z"),
            Instant.parse("2027-01-01T00:00:00.010200Z"),
            Instant.parse("1969-12-31T23:59:59.5Z"),
            Instant.parse("2026-12-02T02:29:14.120Z"));

    // WHEN each is written, THEN the text is Instant's own ISO-8601 form
    for (Instant t : times) {
      assertThat(log.iso(t)).isEqualTo(t.toString());
    }
    Instant now = Instant.now();
    assertThat(log.iso(now)).isEqualTo(now.toString());
  }
}
