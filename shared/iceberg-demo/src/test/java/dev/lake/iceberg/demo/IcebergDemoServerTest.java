package dev.lake.iceberg.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class IcebergDemoServerTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = IcebergDemoServer.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void help_namesTheCommandAndExits0() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).startsWith("Usage: lake iceberg-demo").contains("--port", "--dir");
  }

  @Test
  void usageErrors_areOneLineAndExit2() {
    assertThat(run("--no-such-flag")).isEqualTo(2);
    assertThat(run("--port", "70000")).isEqualTo(2);

    assertThat(err.toString())
        .isEqualTo(
            "lake iceberg-demo: Unknown option: '--no-such-flag'\n"
                + "Try 'bin/lake iceberg-demo --help'.\n"
                + "lake iceberg-demo: --port must be in 0 .. 65535: 70000\n"
                + "Try 'bin/lake iceberg-demo --help'.\n");
  }

  @Test
  void takenPort_isOneLineAndExit1() throws Exception {
    try (ServerSocket taken = new ServerSocket(0)) {
      int port = taken.getLocalPort();

      assertThat(run("--port", Integer.toString(port), "--dir", tempDir())).isEqualTo(1);

      assertThat(err.toString())
          .isEqualTo(
              "lake iceberg-demo: port "
                  + port
                  + " on 127.0.0.1 is in use; pass --port N (0 = any free port)\n");
    }
  }

  private static String tempDir() throws java.io.IOException {
    return java.nio.file.Files.createTempDirectory("iceberg-demo-test").toString();
  }
}
