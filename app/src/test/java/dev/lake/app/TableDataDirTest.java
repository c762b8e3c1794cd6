package dev.lake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The table commands find bin/lake local's registry from its --data-dir, as bin/lake sql does. */
class TableDataDirTest {
  @TempDir Path dir;

  private int lake(StringWriter out, String... args) {
    CommandLine cli = LakeCli.commandLine(Map.of());
    cli.setOut(new PrintWriter(out, true));
    return cli.execute(args);
  }

  @Test
  void importAndUnregister_withDataDir_useThatDirectorysRegistry_andPutTheTableBesideIt()
      throws Exception {
    // GIVEN bin/lake local's data directory elsewhere than ./.lake, and a CSV file
    Path data = dir.resolve("data");
    Path csv = dir.resolve("events.csv");
    Files.writeString(csv, "id,name\n1,alpha\n2,\"beta, inc\"\n");
    TableRef events = TableRef.parse("lake.bi.events");

    // WHEN the CSV is imported with --data-dir
    StringWriter out = new StringWriter();
    int exit =
        lake(
            out,
            "table",
            "import",
            "lake.bi.events",
            csv.toString(),
            "--data-dir",
            data.toString());

    // THEN the table is registered in that directory's registry, its dataset beside the others
    assertThat(exit).as(out.toString()).isZero();
    assertThat(out.toString())
        .contains("imported 2 rows")
        .contains("lake.bi is a new namespace: a running bin/lake local serves it after a restart");
    FileRegistry registry = new FileRegistry(data.resolve("registry.json"));
    assertThat(registry.find(events)).isPresent();
    assertThat(data.resolve("tables/bi/events.lance")).isDirectory();
    // AND a second table of that namespace is not announced as new
    StringWriter second = new StringWriter();
    assertThat(
            lake(
                second,
                "table",
                "import",
                "lake.bi.more",
                csv.toString(),
                "--data-dir",
                data.toString()))
        .isZero();
    assertThat(second.toString())
        .contains("registered lake.bi.more")
        .doesNotContain("new namespace");
    // AND unregister with the same --data-dir removes it from there
    assertThat(
            lake(
                new StringWriter(),
                "table",
                "unregister",
                "lake.bi.events",
                "--data-dir",
                data.toString()))
        .isZero();
    assertThat(new FileRegistry(data.resolve("registry.json")).find(events)).isEmpty();
  }
}
