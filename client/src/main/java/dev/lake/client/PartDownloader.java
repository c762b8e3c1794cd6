package dev.lake.client;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * Downloads the parts of a finished durable result into one directory, resumably: each part is
 * streamed into {@code part-NNNNN.arrow.partial} and renamed to {@code part-NNNNN.arrow} only once
 * complete and flushed, so a killed download leaves only whole parts under their final names, and
 * the next run fetches just the missing ones. The directory is stamped with the query's identity;
 * parts of another query are never mixed in.
 */
final class PartDownloader {
  static final int MAX_PARALLELISM = 64;
  private static final String STAMP = ".lake-query";

  private final LakeClient client;
  private final Path directory;
  private final String identity;
  private final int parallelism;

  PartDownloader(LakeClient client, Path directory, String identity, int parallelism) {
    this.client = requireNonNull(client, "client is null");
    this.directory = requireNonNull(directory, "directory is null");
    this.identity = requireNonNull(identity, "identity is null");
    if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
      throw new IllegalArgumentException(
          "parallelism must be between 1 and " + MAX_PARALLELISM + ": " + parallelism);
    }
    this.parallelism = parallelism;
  }

  static Path partFile(Path directory, int index) {
    return directory.resolve(String.format("part-%05d.arrow", index));
  }

  QueryHandle.Download download(QueryStatus status, ProgressListener listener) {
    stamp();
    List<FlightEndpoint> endpoints = status.endpoints();
    List<Path> files = new ArrayList<>();
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < endpoints.size(); i++) {
      Path file = partFile(directory, i);
      files.add(file);
      if (!Files.isRegularFile(file)) {
        missing.add(i);
      }
    }
    int resumed = endpoints.size() - missing.size();
    AtomicInteger done = new AtomicInteger(resumed);
    int total = Math.max(1, endpoints.size());
    listener.progress((double) resumed / total);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(parallelism, missing.size())),
            r -> {
              Thread t = new Thread(r, "lake-download");
              t.setDaemon(true);
              return t;
            });
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int index : missing) {
        futures.add(
            pool.submit(
                () -> {
                  fetch(endpoints.get(index), partFile(directory, index));
                  listener.progress((double) done.incrementAndGet() / total);
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        await(f);
      }
    } finally {
      pool.shutdownNow();
    }
    return new QueryHandle.Download(files, status.schema(), status.rows(), resumed);
  }

  /** Streams one part into a temporary file, flushes it, then gives it its final name. */
  private void fetch(FlightEndpoint endpoint, Path target) throws IOException {
    Path partial = target.resolveSibling(target.getFileName() + ".partial");
    try (FlightStream stream = client.flight().getStream(endpoint.getTicket(), client.auth());
        FileChannel channel =
            FileChannel.open(
                partial,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        ArrowStreamWriter writer = new ArrowStreamWriter(stream.getRoot(), null, channel)) {
      writer.start();
      while (stream.next()) {
        writer.writeBatch();
      }
      writer.end();
      channel.force(true);
    } catch (FlightRuntimeException e) {
      throw LakeClientException.from(e);
    } catch (Exception e) {
      if (e instanceof IOException io) {
        throw io;
      }
      throw new IOException(e);
    }
    Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Marks the directory as this query's; refuses a directory holding another query's parts. */
  private void stamp() {
    try {
      Files.createDirectories(directory);
      Path stamp = directory.resolve(STAMP);
      if (Files.exists(stamp)) {
        String owner = Files.readString(stamp, StandardCharsets.UTF_8).strip();
        if (!owner.equals(identity)) {
          throw new IllegalStateException(
              directory + " holds the parts of another query; remove it or download elsewhere");
        }
        return;
      }
      try (var files = Files.list(directory)) {
        if (files.anyMatch(p -> p.getFileName().toString().startsWith("part-"))) {
          throw new IllegalStateException(
              directory + " holds parts of an unknown query; remove it or download elsewhere");
        }
      }
      Files.writeString(stamp, identity + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the download directory " + directory, e);
    }
  }

  private static void await(Future<?> f) {
    try {
      f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("download interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof IOException io) {
        throw new UncheckedIOException("cannot write a downloaded part", io);
      }
      throw new IllegalStateException("download failed", cause);
    }
  }
}
