package dev.lake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class VerificationTest {
  private static LakeException gone(String which) {
    return new LakeException(ErrorCode.SNAPSHOT_GONE, which + " is gone");
  }

  @Test
  void await_throwsTheFirstFailureInTableOrder_evenIfALaterCheckFailedFirst() {
    // GIVEN two pending checks of which the second fails first
    CompletableFuture<Void> first = new CompletableFuture<>();
    CompletableFuture<Void> second = new CompletableFuture<>();
    Verification checks = Verification.of(List.of(first, second));
    second.completeExceptionally(gone("second"));
    first.completeExceptionally(gone("first"));

    // WHEN awaited THEN the first table's failure is thrown, as it is (no wrapper)
    assertThatThrownBy(checks::await).isInstanceOf(LakeException.class).hasMessage("first is gone");
  }

  @Test
  void await_waitsForEveryCheck_andPassesWhenAllPassed() throws Exception {
    // GIVEN a check still running on another thread, after one that passed
    CompletableFuture<Void> later = new CompletableFuture<>();
    Verification checks =
        Verification.of(List.of(CompletableFuture.completedFuture(null)))
            .and(Verification.of(List.of(later)));
    Thread t = new Thread(() -> later.complete(null));

    // WHEN it completes THEN await returns
    t.start();
    assertThatCode(checks::await).doesNotThrowAnyException();
    t.join();
    assertThat(later).isDone();
    assertThatCode(Verification.passed()::await).doesNotThrowAnyException();
  }

  @Test
  void await_wrapsACheckedCauseAsInternal() {
    CompletableFuture<Void> checked = new CompletableFuture<>();
    checked.completeExceptionally(new java.io.IOException("socket"));

    assertThatThrownBy(Verification.of(List.of(checked))::await)
        .isInstanceOf(LakeException.class)
        .satisfies(e -> assertThat(((LakeException) e).code()).isEqualTo(ErrorCode.INTERNAL));
  }
}
