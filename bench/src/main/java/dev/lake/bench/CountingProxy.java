package dev.lake.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP relay in front of an object-store endpoint that counts the bytes the store sends
 * back (response headers and bodies) and the connections made: the counting hook for bytes read
 * from object storage, whatever client reads (Lance's native store, the AWS SDK), since both only
 * see an endpoint URL. Counts are totals since the last {@link #reset}.
 */
final class CountingProxy implements AutoCloseable {
  private final ServerSocket server;
  private final InetSocketAddress target;
  private final AtomicLong downstream = new AtomicLong();
  private final AtomicLong connections = new AtomicLong();
  private final Thread acceptor;

  CountingProxy(URI target) throws IOException {
    this.target = new InetSocketAddress(target.getHost(), target.getPort());
    this.server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "bench-counting-proxy");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** The endpoint clients use instead of the store's. */
  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** Bytes the store sent since the last reset. */
  long bytes() {
    return downstream.get();
  }

  long connections() {
    return connections.get();
  }

  void reset() {
    downstream.set(0);
    connections.set(0);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket(target.getAddress(), target.getPort());
        connections.incrementAndGet();
        pump(client, upstream, null);
        pump(upstream, client, downstream);
      } catch (IOException e) {
        // closed, or one connection failed: the client sees it
      }
    }
  }

  private static void pump(Socket from, Socket to, AtomicLong counter) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[64 << 10];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  if (counter != null) {
                    counter.addAndGet(n);
                  }
                  out.write(buffer, 0, n);
                }
              } catch (IOException e) {
                // the other side closed
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "bench-counting-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // closing after the stream ended
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
