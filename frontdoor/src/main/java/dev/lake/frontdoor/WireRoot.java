package dev.lake.frontdoor;

import dev.lake.core.ReleasingAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The root a stream hands to gRPC for Flight's zero-copy write: gRPC keeps a reference to each
 * batch's Arrow buffers and Netty writes them to the socket from there, instead of copying every
 * batch into buffers of its own first (a memory copy plus Netty chunk allocation per batch, the
 * largest cost on the stream thread in the 2026-12-02 profile of P2).
 *
 * <p>Why a root of its own: with zero-copy, buffers stay referenced by gRPC after {@code putNext}
 * returns, until Netty has written them. Each batch's buffers therefore <em>move</em> (an ownership
 * transfer, no copy) from the reader's root into this root before they are sent, so the reader
 * never writes into memory gRPC may still be sending, whatever it does with its vectors, and the
 * execution can close its own allocator as soon as the stream ends. What gRPC still holds is
 * accounted to this root's {@link ReleasingAllocator} (a sibling of the reader's), which closes
 * once the last reference is released: {@link #awaitDrained} waits for that (signalled on release,
 * no polling), and a root closed before then closes its allocator at the last release.
 */
final class WireRoot implements AutoCloseable {
  private final ReleasingAllocator allocator;
  private final VectorSchemaRoot root;
  private final List<TransferPair> transfers = new ArrayList<>();

  private WireRoot(VectorSchemaRoot source, BufferAllocator parent) {
    this.allocator = ReleasingAllocator.childOf(parent, "stream-wire");
    this.root = VectorSchemaRoot.create(source.getSchema(), allocator.allocator());
    List<FieldVector> from = source.getFieldVectors();
    List<FieldVector> to = root.getFieldVectors();
    for (int i = 0; i < from.size(); i++) {
      transfers.add(from.get(i).makeTransferPair(to.get(i)));
    }
  }

  /**
   * A wire root for batches of {@code source}; empty when {@code source} has no columns (nothing to
   * send but row counts, which the plain path does as well).
   */
  static Optional<WireRoot> over(VectorSchemaRoot source) {
    if (source.getFieldVectors().isEmpty()) {
      return Optional.empty();
    }
    BufferAllocator owner = source.getFieldVectors().get(0).getAllocator();
    BufferAllocator parent =
        owner.getParentAllocator() == null ? owner : owner.getParentAllocator();
    return Optional.of(new WireRoot(source, parent));
  }

  /** The root to start the listener with. */
  VectorSchemaRoot root() {
    return root;
  }

  /**
   * Moves the current batch of {@code source} (the root this wire root was made for) here; the
   * previous batch's buffers are released by this root (gRPC's references keep them until sent).
   */
  void take(VectorSchemaRoot source) {
    for (TransferPair transfer : transfers) {
      transfer.transfer();
    }
    root.setRowCount(source.getRowCount());
  }

  /**
   * Releases this root's hold on the last batch and waits until gRPC released its references too;
   * false if that did not happen within {@code bound} (the client stopped reading the stream's last
   * batches).
   */
  boolean awaitDrained(Duration bound) throws InterruptedException {
    root.clear();
    return allocator.awaitDrained(bound);
  }

  /** Closes the root; its allocator closes now if gRPC holds nothing, else at the last release. */
  @Override
  public void close() {
    root.close();
    allocator.close();
  }

  /** Bytes gRPC and this root still hold (for tests). */
  long heldBytes() {
    return allocator.heldBytes();
  }
}
