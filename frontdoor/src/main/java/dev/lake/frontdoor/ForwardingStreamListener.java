package dev.lake.frontdoor;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.message.IpcOption;

/**
 * A DoGet listener that hands every call to {@code delegate}; decorators override only what they
 * change. The convenience overloads {@code start(root)} and {@code start(root, dictionaries)} are
 * left to the interface defaults, which route through the overridable full form.
 */
abstract class ForwardingStreamListener implements ServerStreamListener {
  final ServerStreamListener delegate;

  ForwardingStreamListener(ServerStreamListener delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public boolean isCancelled() {
    return delegate.isCancelled();
  }

  @Override
  public void setOnCancelHandler(Runnable handler) {
    delegate.setOnCancelHandler(handler);
  }

  @Override
  public boolean isReady() {
    return delegate.isReady();
  }

  @Override
  public void setOnReadyHandler(Runnable handler) {
    delegate.setOnReadyHandler(handler);
  }

  @Override
  public void start(VectorSchemaRoot root, DictionaryProvider dictionaries, IpcOption option) {
    delegate.start(root, dictionaries, option);
  }

  @Override
  public void putNext() {
    delegate.putNext();
  }

  @Override
  public void putNext(ArrowBuf metadata) {
    delegate.putNext(metadata);
  }

  @Override
  public void putMetadata(ArrowBuf metadata) {
    delegate.putMetadata(metadata);
  }

  @Override
  public void error(Throwable ex) {
    delegate.error(ex);
  }

  @Override
  public void completed() {
    delegate.completed();
  }

  @Override
  public void setUseZeroCopy(boolean enabled) {
    delegate.setUseZeroCopy(enabled);
  }
}
