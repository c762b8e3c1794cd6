package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.Properties;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.junit.jupiter.api.Test;

class LakeServerTest {
  @Test
  void arrowVersion_isTheFlightSqlJarsVersion_notAHardCodedString() throws Exception {
    // GIVEN the Maven metadata inside the Flight SQL jar on the classpath
    Properties jar = new Properties();
    try (InputStream in =
        FlightSqlProducer.class.getResourceAsStream(
            "/META-INF/maven/org.apache.arrow/flight-sql/pom.properties")) {
      jar.load(in);
    }
    // THEN GetSqlInfo reports exactly that version
    assertThat(LakeServer.ARROW_VERSION)
        .isEqualTo(jar.getProperty("version"))
        .matches("\\d+\\.\\d+\\.\\d+.*");
  }
}
