package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import java.util.EnumMap;
import java.util.Map;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.junit.jupiter.api.Test;

class FlightErrorsTest {
  @Test
  void status_mapsEveryErrorCode() {
    // GIVEN the documented mapping (docs/security.md)
    Map<ErrorCode, FlightStatusCode> expected = new EnumMap<>(ErrorCode.class);
    expected.put(ErrorCode.INVALID_SQL, FlightStatusCode.INVALID_ARGUMENT);
    expected.put(ErrorCode.SQL_NOT_ALLOWED, FlightStatusCode.INVALID_ARGUMENT);
    expected.put(ErrorCode.QUERY_FAILED, FlightStatusCode.INVALID_ARGUMENT);
    expected.put(ErrorCode.INVALID_ARGUMENT, FlightStatusCode.INVALID_ARGUMENT);
    expected.put(ErrorCode.TABLE_NOT_FOUND, FlightStatusCode.NOT_FOUND);
    expected.put(ErrorCode.NOT_FOUND, FlightStatusCode.NOT_FOUND);
    expected.put(ErrorCode.SNAPSHOT_GONE, FlightStatusCode.NOT_FOUND);
    expected.put(ErrorCode.UNAUTHENTICATED, FlightStatusCode.UNAUTHENTICATED);
    expected.put(ErrorCode.TICKET_INVALID, FlightStatusCode.UNAUTHENTICATED);
    expected.put(ErrorCode.TICKET_EXPIRED, FlightStatusCode.UNAUTHENTICATED);
    expected.put(ErrorCode.PERMISSION_DENIED, FlightStatusCode.UNAUTHORIZED);
    expected.put(ErrorCode.TICKET_FOREIGN, FlightStatusCode.UNAUTHORIZED);
    expected.put(ErrorCode.UNSUPPORTED, FlightStatusCode.UNIMPLEMENTED);
    expected.put(ErrorCode.RESOURCE_EXHAUSTED, FlightStatusCode.RESOURCE_EXHAUSTED);
    expected.put(ErrorCode.OVERLOADED, FlightStatusCode.UNAVAILABLE);
    expected.put(ErrorCode.EXTERNAL_UNAVAILABLE, FlightStatusCode.UNAVAILABLE);
    expected.put(ErrorCode.CANCELLED, FlightStatusCode.CANCELLED);
    expected.put(ErrorCode.DEADLINE_EXCEEDED, FlightStatusCode.TIMED_OUT);
    expected.put(ErrorCode.INTERNAL, FlightStatusCode.INTERNAL);
    // THEN every code is mapped as documented
    assertThat(expected).hasSize(ErrorCode.values().length);
    for (ErrorCode code : ErrorCode.values()) {
      assertThat(FlightErrors.status(code).code()).as(code.name()).isEqualTo(expected.get(code));
    }
  }

  @Test
  void toFlight_keepsUserMessage_ofLakeException() {
    FlightRuntimeException e =
        FlightErrors.toFlight(new LakeException(ErrorCode.SQL_NOT_ALLOWED, "COPY is not allowed"));
    assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
    assertThat(e.status().description()).isEqualTo("COPY is not allowed");
    assertThat(e.status().metadata().get(FlightErrors.ERROR_CODE_KEY)).isEqualTo("SQL_NOT_ALLOWED");
  }

  @Test
  void toFlight_hidesDetails_ofUnexpectedAndInternalErrors() {
    // GIVEN failures whose text names a storage location
    RuntimeException unexpected = new IllegalStateException("cannot open /data/secret/x.lance");
    LakeException internal =
        new LakeException(ErrorCode.INTERNAL, "broken at /data/secret", unexpected);
    for (RuntimeException failure : new RuntimeException[] {unexpected, internal}) {
      // WHEN
      FlightRuntimeException e = FlightErrors.toFlight(failure);
      // THEN the client sees a generic message with a reference, nothing else
      assertThat(e.status().code()).isEqualTo(FlightStatusCode.INTERNAL);
      assertThat(e.status().description())
          .startsWith("Internal error in lake (reference ")
          .endsWith("); see the server log")
          .doesNotContain("/data/secret");
      assertThat(e.status().cause()).isNull();
      assertThat(e.status().metadata().get(FlightErrors.ERROR_CODE_KEY)).isEqualTo("INTERNAL");
    }
  }
}
