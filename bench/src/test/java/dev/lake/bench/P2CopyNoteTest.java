package dev.lake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.CacheStats;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class P2CopyNoteTest {
  private static Optional<CacheStats> stats(long copies, long hits) {
    return Optional.of(new CacheStats(copies, hits, 0, 0, 0, 0));
  }

  @Test
  void copyNote_saysEveryTimedRunReadTheCopy_whenCopyReadsCoverTheTimedRuns() {
    // GIVEN 6 warm-up rounds and 5 timed runs; the copy was made after the 2nd read, so the last
    // 9 of the 11 reads came from it
    // WHEN
    String note = P2Streaming.copyNote(stats(3, 40), stats(4, 49), 6, 5);
    // THEN
    assertThat(note)
        .isEqualTo(
            "; snapshot cache during P2: 1 copies made, 9 of 11 lake reads from copies (every"
                + " timed run read the copy)");
  }

  @Test
  void copyNote_countsTheTimedRunsThatReadUncached_whenTheCopyCameLate() {
    // GIVEN 1 warm-up round and 3 timed runs of which only the last read the copy
    // WHEN
    String note = P2Streaming.copyNote(stats(0, 0), stats(1, 1), 1, 3);
    // THEN
    assertThat(note)
        .endsWith("1 of 4 lake reads from copies (2 of 3 timed runs read lineitem uncached)");
  }

  @Test
  void copyNote_isEmpty_whenTheStackCannotTell() {
    assertThat(P2Streaming.copyNote(Optional.empty(), stats(1, 1), 1, 3)).isEmpty();
  }
}
