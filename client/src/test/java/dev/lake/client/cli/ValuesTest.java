package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Unsigned Arrow vectors print exactly (lake's server widens them, other Flight SQL servers may
 * not): Arrow's getObject reads them as signed Java types, UInt2 even as a char.
 */
class ValuesTest {
  private final BufferAllocator allocator = new RootAllocator();

  @AfterEach
  void close() {
    allocator.close();
  }

  @Test
  void unsignedIntegers_printTheirUnsignedValue() {
    try (UInt1Vector u1 = new UInt1Vector("u1", allocator);
        UInt2Vector u2 = new UInt2Vector("u2", allocator);
        UInt4Vector u4 = new UInt4Vector("u4", allocator);
        UInt8Vector u8 = new UInt8Vector("u8", allocator)) {
      u1.setSafe(0, (byte) 200);
      u2.setSafe(0, 40000);
      u4.setSafe(0, (int) 4_000_000_000L);
      u8.setSafe(0, -1L);
      for (var v : java.util.List.of(u1, u2, u4, u8)) {
        v.setValueCount(1);
      }

      assertThat(Values.text(u1, 0)).isEqualTo("200");
      assertThat(Values.text(u2, 0)).isEqualTo("40000");
      assertThat(Values.text(u4, 0)).isEqualTo("4000000000");
      assertThat(Values.text(u8, 0)).isEqualTo("18446744073709551615");
      assertThat(JsonValues.text(u8, 0)).isEqualTo("18446744073709551615");
    }
  }

  @Test
  void listOfUnsigned_isJsonWithExactNumbers() {
    try (ListVector list = ListVector.empty("l", allocator)) {
      UnionListWriter w = list.getWriter();
      w.startList();
      w.writeUInt8(-1L);
      w.writeUInt8(40000L);
      w.endList();
      w.setValueCount(1);

      assertThat(Values.text(list, 0)).isEqualTo("[18446744073709551615,40000]");
    }
  }
}
