package dev.lake.aws.testing;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;

/**
 * A transport fault injector (not a mock): requests reach the real emulator, but the next {@code n}
 * responses are dropped after the server processed them, as a connection reset would. The SDK then
 * retries a request whose first attempt already applied.
 */
public final class LosingResponsesHttpClient implements SdkHttpClient {
  private final SdkHttpClient delegate;
  private final AtomicInteger toLose = new AtomicInteger();

  public LosingResponsesHttpClient(SdkHttpClient delegate) {
    this.delegate = delegate;
  }

  /** Drops the next {@code n} responses. */
  public void loseNext(int n) {
    toLose.set(n);
  }

  @Override
  public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
    ExecutableHttpRequest real = delegate.prepareRequest(request);
    return new ExecutableHttpRequest() {
      @Override
      public HttpExecuteResponse call() throws IOException {
        HttpExecuteResponse response = real.call();
        if (toLose.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          if (response.responseBody().isPresent()) {
            response.responseBody().get().close();
          }
          throw new IOException("connection reset (injected after the server applied)");
        }
        return response;
      }

      @Override
      public void abort() {
        real.abort();
      }
    };
  }

  @Override
  public String clientName() {
    return "LosingResponses";
  }

  @Override
  public void close() {
    delegate.close();
  }
}
