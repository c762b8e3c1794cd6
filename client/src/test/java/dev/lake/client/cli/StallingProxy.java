package dev.lake.client.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP relay in front of a server that forwards the server's bytes until {@code limit} of
 * them have passed, then stops forwarding (the network stalls mid-download) until closed. Lets a
 * test interrupt a download at a known point without touching either side.
 */
final class StallingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int target;
  private final long limit;
  private final AtomicLong forwarded = new AtomicLong();
  private final CountDownLatch stalled = new CountDownLatch(1);
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  StallingProxy(int target, long limit) throws IOException {
    this.target = target;
    this.limit = limit;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    daemon(this::accept);
  }

  String url() {
    return "grpc+tcp://127.0.0.1:" + listener.getLocalPort();
  }

  /** Counts down once the server's bytes stopped being forwarded. */
  CountDownLatch stalled() {
    return stalled;
  }

  private void accept() {
    try {
      while (true) {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
        sockets.add(client);
        sockets.add(server);
        daemon(() -> pump(client.getInputStream(), server.getOutputStream(), false));
        daemon(() -> pump(server.getInputStream(), client.getOutputStream(), true));
      }
    } catch (IOException closed) {
      // the proxy was closed
    }
  }

  private interface Io {
    void run() throws IOException;
  }

  private void pump(InputStream in, OutputStream out, boolean limited) throws IOException {
    byte[] buffer = new byte[8192];
    int n;
    while ((n = in.read(buffer)) >= 0) {
      if (limited && forwarded.addAndGet(n) > limit) {
        stalled.countDown();
        return; // stop forwarding; the connection stays open until close()
      }
      out.write(buffer, 0, n);
      out.flush();
    }
  }

  private static void daemon(Io body) {
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (IOException closed) {
                // a socket was closed
              }
            },
            "stalling-proxy");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    for (Socket s : sockets) {
      s.close();
    }
  }
}
