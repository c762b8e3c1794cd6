package dev.lake.iceberg.demo;

import static java.util.Objects.requireNonNull;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The Iceberg project's own REST catalog server ({@code RESTCatalogServlet} over {@code
 * RESTCatalogAdapter}, from iceberg-core's test fixtures) backed by a JDBC catalog in a SQLite
 * file, on loopback, on Jetty 12 with daemon threads. Counts every request (method + path) so tests
 * can assert how often lake called the catalog, and can require OAuth2 client credentials.
 *
 * <p>{@link #backend()} is the catalog behind the server: use it to create and change tables
 * without going through (or being counted by) the REST endpoint.
 */
public final class RestCatalogFixture implements AutoCloseable {
  /** One request seen by the server. */
  public record Request(String method, String path) {}

  /** One request answered by the server, with the HTTP status it answered (304: Not Modified). */
  public record Response(String method, String path, int status) {}

  private final Server server;
  private final Catalog backend;
  private final URI uri;
  private final Queue<Request> requests;
  private final Queue<Response> responses;
  private final java.util.concurrent.atomic.AtomicReference<java.util.function.Consumer<Request>>
      hook;

  private RestCatalogFixture(
      Server server,
      Catalog backend,
      URI uri,
      Queue<Request> requests,
      Queue<Response> responses,
      java.util.concurrent.atomic.AtomicReference<java.util.function.Consumer<Request>> hook) {
    this.server = server;
    this.backend = backend;
    this.uri = uri;
    this.requests = requests;
    this.responses = responses;
    this.hook = hook;
  }

  /**
   * Starts the server.
   *
   * @param stateDir where the SQLite catalog database lives
   * @param warehouse the warehouse location: a local directory path or {@code s3://bucket/prefix}
   * @param ioProperties FileIO properties of the backend catalog (e.g. {@code s3.endpoint})
   * @param port the port to bind on 127.0.0.1 (0 = any free port)
   * @param clientCredential if present ({@code id:secret}), the server issues tokens only for it
   *     and refuses every other request without a bearer token
   */
  public static RestCatalogFixture start(
      Path stateDir,
      String warehouse,
      Map<String, String> ioProperties,
      int port,
      Optional<String> clientCredential)
      throws Exception {
    requireNonNull(stateDir, "stateDir is null");
    requireNonNull(warehouse, "warehouse is null");
    requireNonNull(clientCredential, "clientCredential is null");
    Files.createDirectories(stateDir);
    // A mutable map: Iceberg catalogs NPE on Map.of(...) lookups of absent keys.
    Map<String, String> props = new HashMap<>(ioProperties);
    props.put(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    props.put(CatalogProperties.URI, "jdbc:sqlite:" + stateDir.resolve("catalog.db"));
    props.put("jdbc.schema-version", "V1");
    props.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
    props.putIfAbsent(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.io.ResolvingFileIO");
    props.putIfAbsent("http-client.type", "urlconnection");
    Catalog backend = CatalogUtil.buildIcebergCatalog("backend", props, new Configuration());

    RESTCatalogAdapter adapter = new RESTCatalogAdapter(backend);
    // queues, not copy-on-write lists: a bench catalog serves tens of thousands of requests, and
    // a copy-on-write list copied every request seen so far on each one
    Queue<Request> requests = new ConcurrentLinkedQueue<>();
    Queue<Response> responses = new ConcurrentLinkedQueue<>();
    java.util.concurrent.atomic.AtomicReference<java.util.function.Consumer<Request>> hook =
        new java.util.concurrent.atomic.AtomicReference<>();
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(new RESTCatalogServlet(adapter)), "/*");
    context.addFilter(
        new FilterHolder(new CountingFilter(requests, responses, clientCredential, hook)),
        "/*",
        EnumSet.of(DispatcherType.REQUEST));

    QueuedThreadPool threads = new QueuedThreadPool(32, 4);
    threads.setDaemon(true);
    threads.setName("iceberg-rest-fixture");
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);
    server.setHandler(context);
    server.start();
    URI uri = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    return new RestCatalogFixture(server, backend, uri, requests, responses, hook);
  }

  /** A local-filesystem fixture on a free port without authentication. */
  public static RestCatalogFixture startLocal(Path dir) throws Exception {
    Path warehouse = dir.resolve("warehouse");
    Files.createDirectories(warehouse);
    return start(dir, warehouse.toString(), Map.of(), 0, Optional.empty());
  }

  public URI uri() {
    return uri;
  }

  public Catalog backend() {
    return backend;
  }

  /** Every request so far, in arrival order. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  /** How many loadTable calls (GET of the table resource) the server has served for it. */
  public long loadTableRequests(String namespace, String table) {
    String suffix = "/namespaces/" + namespace + "/tables/" + table;
    return requests.stream()
        .filter(r -> r.method().equals("GET") && r.path().endsWith(suffix))
        .count();
  }

  /**
   * The HTTP status of each loadTable the server has answered for it, in order: 200 with the
   * table's metadata, or 304 when the client's {@code If-None-Match} named the current ETag
   * (Iceberg's REST server derives it from the table's metadata location).
   */
  public List<Integer> loadTableStatuses(String namespace, String table) {
    String suffix = "/namespaces/" + namespace + "/tables/" + table;
    return responses.stream()
        .filter(r -> r.method().equals("GET") && r.path().endsWith(suffix))
        .map(Response::status)
        .toList();
  }

  public void resetRequests() {
    requests.clear();
    responses.clear();
  }

  /**
   * Runs {@code onRequest} on the server's request thread before each request is handled (tests:
   * e.g. holding requests at a barrier to observe concurrency); null removes it.
   */
  public void onRequest(java.util.function.Consumer<Request> onRequest) {
    hook.set(onRequest);
  }

  @Override
  public void close() throws Exception {
    server.stop();
    if (backend instanceof AutoCloseable c) {
      c.close();
    }
  }

  /**
   * Records requests. With a client credential configured, issues tokens only for that id and
   * secret, and refuses any other request without a bearer token.
   */
  private record CountingFilter(
      Queue<Request> requests,
      Queue<Response> responses,
      Optional<String> credential,
      java.util.concurrent.atomic.AtomicReference<java.util.function.Consumer<Request>> hook)
      implements Filter {
    @Override
    public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain)
        throws IOException, ServletException {
      HttpServletRequest http = (HttpServletRequest) req;
      HttpServletResponse out = (HttpServletResponse) resp;
      Request request = new Request(http.getMethod(), http.getRequestURI());
      requests.add(request);
      java.util.function.Consumer<Request> onRequest = hook.get();
      if (onRequest != null) {
        onRequest.accept(request);
      }
      try {
        authorizeAndServe(http, out, chain);
      } finally {
        responses.add(new Response(request.method(), request.path(), out.getStatus()));
      }
    }

    private void authorizeAndServe(
        HttpServletRequest http, HttpServletResponse out, FilterChain chain)
        throws IOException, ServletException {
      if (credential.isEmpty()) {
        chain.doFilter(http, out);
        return;
      }
      if (http.getRequestURI().endsWith("/oauth/tokens")) {
        byte[] body = http.getInputStream().readAllBytes();
        Map<String, String> form = new HashMap<>();
        for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
          int eq = pair.indexOf('=');
          if (eq > 0) {
            form.put(
                URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
          }
        }
        if (!credential.get().equals(form.get("client_id") + ":" + form.get("client_secret"))) {
          deny(out, "invalid_client");
          return;
        }
        chain.doFilter(new CachedBody(http, body), out);
        return;
      }
      String auth = http.getHeader("Authorization");
      if (auth == null || !auth.startsWith("Bearer client-credentials-token:")) {
        deny(out, "NotAuthorizedException");
        return;
      }
      chain.doFilter(http, out);
    }

    private static void deny(HttpServletResponse r, String type) throws IOException {
      r.setStatus(401);
      r.setContentType("application/json");
      if (type.equals("invalid_client")) {
        r.getWriter().write("{\"error\":\"invalid_client\",\"error_description\":\"bad client\"}");
      } else {
        r.getWriter()
            .write(
                "{\"error\":{\"message\":\"Not authorized\",\"type\":\""
                    + type
                    + "\",\"code\":401}}");
      }
    }
  }

  /** A request whose body was already read, replayed to the servlet. */
  private static final class CachedBody extends HttpServletRequestWrapper {
    private final byte[] body;

    CachedBody(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException("blocking reads only");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(
          new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }
  }
}
