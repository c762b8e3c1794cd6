package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.local.FileRegistry;
import dev.lake.core.local.LocalKeyRing;
import dev.lake.engine.EngineConfig;
import dev.lake.lance.LanceFormat;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsTest {
  @TempDir Path dir;

  @Test
  void server_speaksTls_withConfiguredCertificate() throws Exception {
    // GIVEN a self-signed certificate for localhost made by openssl
    Path cert = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    Process openssl =
        new ProcessBuilder(
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:prime256v1",
                "-nodes",
                "-days",
                "1",
                "-subj",
                "/CN=localhost",
                "-addext",
                "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout",
                key.toString(),
                "-out",
                cert.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(openssl.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(openssl.exitValue())
        .as(new String(openssl.getInputStream().readAllBytes()))
        .isZero();
    // AND a TLS listener with an empty registry
    try (RootAllocator allocator = new RootAllocator();
        Components components =
            EngineComponents.over(
                allocator,
                EngineConfig.defaults(dir.resolve("spill")),
                LocalKeyRing.ephemeral(),
                List.of(
                    LanceFormat.catalog(
                        new FileRegistry(dir.resolve("registry.json")),
                        allocator,
                        Duration.ZERO)));
        LakeServer server =
            LakeServer.start(
                FrontDoorConfig.defaults()
                    .withListener("127.0.0.1", 0)
                    .withTls(Optional.of(cert), Optional.of(key)),
                components,
                new Principals(
                    List.of(
                        new PrincipalEntry(
                            Principals.sha256Hex("t"), "acme", "alice", List.of("lake.tpch")))),
                Clock.systemUTC());
        InputStream trusted = Files.newInputStream(cert);
        FlightSqlClient client =
            new FlightSqlClient(
                FlightClient.builder(allocator, Location.forGrpcTls("localhost", server.port()))
                    .trustedCertificates(trusted)
                    .build())) {
      // WHEN a client that trusts the certificate browses the catalog
      FlightInfo info = client.getTableTypes(TestLake.bearer("t"));
      try (FlightStream stream =
          client.getStream(info.getEndpoints().get(0).getTicket(), TestLake.bearer("t"))) {
        // THEN the call succeeds over TLS
        assertThat(stream.next()).isTrue();
        assertThat(stream.getRoot().contentToTSVString()).contains("TABLE");
      }
    }
  }
}
