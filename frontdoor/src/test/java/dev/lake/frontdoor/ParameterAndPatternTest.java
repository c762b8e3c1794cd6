package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

class ParameterAndPatternTest {
  @Test
  void value_convertsArrowParameters_toEngineTypes() {
    try (RootAllocator allocator = new RootAllocator();
        IntVector i = new IntVector("i", allocator);
        BigIntVector l = new BigIntVector("l", allocator);
        DecimalVector d = new DecimalVector("d", allocator, 15, 2);
        VarCharVector s = new VarCharVector("s", allocator);
        DateDayVector date = new DateDayVector("date", allocator)) {
      i.setSafe(0, 7);
      l.setNull(0);
      d.setSafe(0, new BigDecimal("0.05"));
      s.setSafe(0, "R".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      date.setSafe(0, (int) LocalDate.of(1994, 1, 1).toEpochDay());
      assertThat(ParameterBinder.value(i, 0)).isEqualTo(7L);
      assertThat(ParameterBinder.value(l, 0)).isNull();
      assertThat(ParameterBinder.value(d, 0)).isEqualTo(new BigDecimal("0.05"));
      assertThat(ParameterBinder.value(s, 0)).isEqualTo("R");
      assertThat(ParameterBinder.value(date, 0)).isEqualTo(LocalDate.of(1994, 1, 1));
    }
  }
}
