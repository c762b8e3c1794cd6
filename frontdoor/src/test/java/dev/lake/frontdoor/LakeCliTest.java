package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.TableRef;
import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class LakeCliTest {
  @TempDir Path dir;

  @Test
  void local_printsReady_andAnswersJdbc_untilStopped() throws Exception {
    // GIVEN `lake local` started in-process on a free port
    StringWriter output = new StringWriter();
    PrintWriter out = new PrintWriter(output, true);
    Thread cli =
        new Thread(
            () ->
                new CommandLine(new LakeCli())
                    .setOut(out)
                    .execute("local", "--port", "0", "--data-dir", dir.toString()));
    cli.start();
    // WHEN it reports ready
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!output.toString().contains("ready") && System.nanoTime() < deadline) {
      assertThat(cli.isAlive()).as(output.toString()).isTrue();
      Thread.sleep(100);
    }
    String printed = output.toString();
    assertThat(printed).contains("ready");
    Matcher url = Pattern.compile("JDBC URL: (\\S+)").matcher(printed);
    assertThat(url.find()).isTrue();
    assertThat(url.group(1))
        .startsWith("jdbc:arrow-flight-sql://127.0.0.1:")
        .contains("/?useEncryption=false&token=");
    // THEN the printed JDBC URL answers the README's first query
    try (Connection c = DriverManager.getConnection(url.group(1));
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT l_returnflag, count(*) FROM lake.tpch.lineitem GROUP BY 1 ORDER BY 1")) {
      int groups = 0;
      while (rs.next()) {
        groups++;
      }
      assertThat(groups).isEqualTo(3);
    }
    // AND it stops cleanly
    cli.interrupt();
    cli.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(cli.isAlive()).isFalse();
    assertThat(Files.readString(dir.resolve("principals.json"))).doesNotContain("lake_");
  }

  @Test
  void tableAndKeysCommands_editRegistryAndKeyRing() {
    Path registry = dir.resolve("registry.json");
    Path keyRing = dir.resolve("keyring.json");
    LocalKeyRing.loadOrCreate(keyRing);
    StringWriter output = new StringWriter();
    CommandLine cli = new CommandLine(new LakeCli()).setOut(new PrintWriter(output, true));
    assertThat(
            cli.execute(
                "table", "register", "--registry", registry.toString(), "lake.s.t", "/data/t"))
        .isZero();
    assertThat(new FileRegistry(registry).find(TableRef.parse("lake.s.t"))).isPresent();
    assertThat(cli.execute("table", "unregister", "--registry", registry.toString(), "lake.s.t"))
        .isZero();
    assertThat(new FileRegistry(registry).list()).isEmpty();
    assertThat(cli.execute("keys", "rotate", "--key-ring", keyRing.toString())).isZero();
    assertThat(LocalKeyRing.load(keyRing).keyIds()).hasSize(2);
    assertThat(output.toString()).contains("registered lake.s.t").contains("unregistered lake.s.t");
  }
}
