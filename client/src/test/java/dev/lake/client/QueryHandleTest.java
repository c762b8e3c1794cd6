package dev.lake.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryHandleTest {
  @Test
  void serialize_thenResume_keepsServerDescriptorAndSubmissionId() {
    try (LakeClient client =
        LakeClient.connect(LakeClientConfig.of("grpc+tcp://127.0.0.1:1", "t"))) {
      QueryHandle handle =
          new QueryHandle(client, new byte[] {'L', 'K', 1, 2}, Optional.of("id-1"));

      String text = handle.serialize();
      QueryHandle resumed = client.resume(text);

      assertThat(text).startsWith("lkq1.").doesNotContain("\n", " ");
      assertThat(QueryHandle.serverOf(text)).isEqualTo(URI.create("grpc+tcp://127.0.0.1:1"));
      assertThat(resumed.submissionId()).contains("id-1");
      assertThat(resumed.identity()).isEqualTo(handle.identity());
      assertThat(resumed.serialize()).isEqualTo(text);
    }
  }

  @Test
  void resume_rejectsWhatIsNoHandle() {
    try (LakeClient client =
        LakeClient.connect(LakeClientConfig.of("grpc+tcp://127.0.0.1:1", "t"))) {
      for (String bad : new String[] {"", "lkq1.", "lkq1.!!!", "lkq1.e30", "xyz"}) {
        assertThatThrownBy(() -> client.resume(bad))
            .as(bad)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageStartingWith("not a lake query handle");
      }
    }
  }
}
