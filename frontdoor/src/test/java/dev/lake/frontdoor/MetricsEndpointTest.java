package dev.lake.frontdoor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void metrics_answerThePrometheusExposition_andHealthAnswersOk() throws Exception {
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    meters.counter("lake.test.calls", "tenant", "t1").increment(2);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0, meters)) {
      HttpResponse<String> metrics = get(endpoint, "/metrics", "GET");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.headers().firstValue("Content-Type"))
          .hasValue(MetricsEndpoint.CONTENT_TYPE);
      assertThat(metrics.body()).contains("lake_test_calls_total{tenant=\"t1\"} 2.0");
      assertThat(get(endpoint, "/health", "GET").body()).isEqualTo("ok\n");
      assertThat(get(endpoint, "/metrics", "POST").statusCode()).isEqualTo(405);
      assertThat(get(endpoint, "/secrets", "GET").statusCode()).isEqualTo(404);
      // the endpoint still answers after bad requests
      assertThat(get(endpoint, "/metrics", "GET").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void start_rejectsAPortOutOfRange() {
    PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    assertThatThrownBy(() -> MetricsEndpoint.start("127.0.0.1", 70000, meters))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("metrics port must be between 0 and 65535: 70000");
  }

  private HttpResponse<String> get(MetricsEndpoint endpoint, String path, String method)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
