package dev.lake.client;

/** Receives the progress of a durable query or a download, as a fraction in [0, 1]. */
@FunctionalInterface
public interface ProgressListener {
  /** A listener that ignores progress. */
  ProgressListener NONE = fraction -> {};

  void progress(double fraction);
}
