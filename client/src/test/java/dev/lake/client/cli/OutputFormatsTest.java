package dev.lake.client.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.client.LakeClient;
import dev.lake.client.LakeClientConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What {@code lake sql} prints for values that Arrow's own text gets wrong: unsigned integers (read
 * as signed Java types, UInt2 even as a char) and nested values (JSON values in JSON, JSON text in
 * the other formats); through {@link QueryRunner} in process against a real lake.
 */
class OutputFormatsTest {
  private static final String UNSIGNED =
      "SELECT 200::UTINYINT AS u1, 40000::USMALLINT AS u2, 4000000000::UINTEGER AS u4,"
          + " 18446744073709551615::UBIGINT AS u8";

  private static final String NESTED =
      "SELECT [1, 2] AS arr, {'a': 1, 'b': 'x'} AS st, MAP {'k': 40000::USMALLINT} AS m,"
          + " [{'u': 18446744073709551615::UBIGINT}] AS deep, [NULL, 1.5] AS dec";

  /** What {@code lake sql --format FORMAT -e SQL} prints. */
  private static String print(String format, String sql) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (LakeClient client =
        LakeClient.connect(LakeClientConfig.of(SharedLake.get().url(), SharedLake.get().token()))) {
      new QueryRunner(client, new PrintStream(out, true, StandardCharsets.UTF_8))
          .run(sql, OutputFormat.valueOf(format.toUpperCase(Locale.ROOT)), Optional.empty(), false);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "csv  | \"u1,u2,u4,u8\n200,40000,4000000000,18446744073709551615\n\"",
        "json | \"{\"\"u1\"\":200,\"\"u2\"\":40000,\"\"u4\"\":4000000000,\"\"u8\"\":18446744073709551615}\n\"",
        "table| \"u1  | u2    | u4         | u8\n"
            + "----+-------+------------+---------------------\n"
            + "200 | 40000 | 4000000000 | 18446744073709551615\n(1 row)\n\""
      })
  void unsignedIntegers_printExactlyInEveryFormat(String format, String expected)
      throws IOException {
    assertThat(print(format.strip(), UNSIGNED)).isEqualTo(expected);
  }

  @Test
  void json_rendersListsStructsAndMapsAsJsonValues() throws IOException {
    assertThat(print("json", NESTED))
        .isEqualTo(
            "{\"arr\":[1,2],\"st\":{\"a\":1,\"b\":\"x\"},\"m\":{\"k\":40000},"
                + "\"deep\":[{\"u\":18446744073709551615}],\"dec\":[null,1.5]}\n");
  }

  @Test
  void csv_printsNestedValuesAsJsonText() throws IOException {
    assertThat(print("csv", NESTED))
        .isEqualTo(
            "arr,st,m,deep,dec\n"
                + "\"[1,2]\",\"{\"\"a\"\":1,\"\"b\"\":\"\"x\"\"}\",\"{\"\"k\"\":40000}\","
                + "\"[{\"\"u\"\":18446744073709551615}]\",\"[null,1.5]\"\n");
  }
}
