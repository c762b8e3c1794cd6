package dev.lake.frontdoor;

import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.message.IpcOption;

/**
 * A DoGet listener that sees each batch's rows and Arrow buffer bytes just before it is sent
 * ({@link #batch}); a {@code batch} that throws keeps the batch from being sent.
 */
abstract class MeteringStreamListener extends ForwardingStreamListener {
  private volatile VectorSchemaRoot root;

  MeteringStreamListener(ServerStreamListener delegate) {
    super(delegate);
  }

  /** The batch about to be sent. */
  abstract void batch(int rows, long bytes);

  @Override
  public void start(VectorSchemaRoot root, DictionaryProvider dictionaries, IpcOption option) {
    this.root = root;
    delegate.start(root, dictionaries, option);
  }

  @Override
  public void putNext() {
    meter();
    delegate.putNext();
  }

  @Override
  public void putNext(ArrowBuf metadata) {
    meter();
    delegate.putNext(metadata);
  }

  private void meter() {
    VectorSchemaRoot r = root;
    if (r != null) {
      long bytes = 0;
      for (FieldVector v : r.getFieldVectors()) {
        bytes += v.getBufferSize();
      }
      batch(r.getRowCount(), bytes);
    }
  }
}
