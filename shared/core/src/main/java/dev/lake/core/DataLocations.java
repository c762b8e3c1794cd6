package dev.lake.core;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where this deployment's table data may live (the seed's "source bucket and prefix allowlists
 * owned by deployment configuration"): {@code s3://bucket/prefix/} prefixes and, on one host (a
 * registry file, not a fleet's shared registry), local directories. One settings record for every
 * format ({@code --data-locations} ⇔ {@code LAKE_DATA_LOCATIONS}), found in {@link
 * FormatContext#findSettings}. Registration checks a table's location ({@link #checkRegistration});
 * the format readers check every location a read touches before anything opens, stats or links it
 * ({@link #checkRead}), so the rule travels with the readers into whatever process runs them.
 *
 * <p>A location is allowed when it lies lexically under an allowed prefix after a strict parse that
 * refuses rather than normalizes: no {@code .} or {@code ..} segment, no empty segment in an S3
 * key, no {@code %}, {@code ?}, {@code #} or backslash (a library could decode or cut them
 * differently from this check), no relative path, no other scheme. A local location is then also
 * checked below its allowed root: no component is a symbolic link (links are never followed, so
 * nothing outside is stat'ed), and a regular file has exactly one hard link (a second name could be
 * a link to a file outside). Components that do not exist end the walk: reading them fails later as
 * a missing file, which reveals nothing outside.
 *
 * <p>A plain record of strings, so a process can hand it to an engine child process as JSON. {@link
 * #NONE} allows nothing: every read fails closed (a deployment that named no location).
 *
 * @param s3Prefixes normalized {@code s3://bucket/prefix/} prefixes (ending in {@code /})
 * @param localRoots allowed local directories, absolute and normalized: each as configured and,
 *     where it differs, its real path (a root's own ancestors are the operator's choice)
 */
public record DataLocations(List<String> s3Prefixes, List<String> localRoots) {
  /** The flag and variable named in errors. */
  public static final String FLAG = "--data-locations (LAKE_DATA_LOCATIONS)";

  /** No location at all: every table read is refused. */
  public static final DataLocations NONE = new DataLocations(List.of(), List.of());

  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  public DataLocations {
    s3Prefixes = List.copyOf(requireNonNull(s3Prefixes, "s3Prefixes is null"));
    localRoots = List.copyOf(requireNonNull(localRoots, "localRoots is null"));
    for (String p : s3Prefixes) {
      if (!p.endsWith("/") || s3(p).filter(p::equals).isEmpty()) {
        throw new IllegalArgumentException("not a normalized s3://bucket/prefix/: " + p);
      }
    }
    for (String r : localRoots) {
      Path p = Path.of(r);
      if (!p.isAbsolute() || !p.normalize().toString().equals(r)) {
        throw new IllegalArgumentException("not an absolute normalized directory: " + r);
      }
    }
  }

  /**
   * Parses a comma-separated list of {@code s3://bucket/prefix/} prefixes (each ending in {@code
   * /}; {@code s3://bucket/} allows the whole bucket) and, when {@code localPathsAllowed} (one
   * host), existing local directories ({@code /abs/dir} or {@code file:/abs/dir}).
   *
   * @throws IllegalArgumentException naming the flag and the bad entry
   */
  public static DataLocations parse(String csv, boolean localPathsAllowed) {
    requireNonNull(csv, "csv is null");
    Set<String> prefixes = new LinkedHashSet<>();
    Set<String> roots = new LinkedHashSet<>();
    for (String raw : csv.split(",", -1)) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      if (entry.regionMatches(true, 0, "s3://", 0, 5)) {
        String normal = "s3://" + entry.substring(5);
        if (!normal.endsWith("/")) {
          throw bad(entry, "must end with '/' (a prefix, e.g. " + normal + "/)");
        }
        prefixes.add(s3(normal).orElseThrow(() -> bad(entry, "is not an s3://bucket/prefix/")));
      } else if (localPathsAllowed && (entry.startsWith("/") || entry.startsWith("file:"))) {
        Path dir = localPath(entry).orElseThrow(() -> bad(entry, "is not an absolute directory"));
        if (!Files.isDirectory(dir)) {
          throw bad(entry, "is not an existing directory");
        }
        roots.addAll(rootAndRealPath(dir));
      } else {
        throw bad(
            entry,
            localPathsAllowed
                ? "is neither an s3://bucket/prefix/ nor an absolute local directory"
                : "is not an s3://bucket/prefix/ (local directories are accepted on one host"
                    + " only)");
      }
    }
    if (prefixes.isEmpty() && roots.isEmpty()) {
      throw new IllegalArgumentException(FLAG + " is empty: name at least one location");
    }
    return new DataLocations(List.copyOf(prefixes), List.copyOf(roots));
  }

  /** Local mode's default: its own data directory (created if missing). */
  public static DataLocations of(Path directory) {
    requireNonNull(directory, "directory is null");
    Path dir = directory.toAbsolutePath().normalize();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot create the data directory " + dir, e);
    }
    return new DataLocations(List.of(), rootAndRealPath(dir));
  }

  /** These locations and {@code directory} (created if missing): local mode's data directory. */
  public DataLocations plus(Path directory) {
    Set<String> roots = new LinkedHashSet<>(localRoots);
    roots.addAll(of(directory).localRoots());
    return new DataLocations(s3Prefixes, List.copyOf(roots));
  }

  /** Whether any allowed location is a local directory (refused with a DynamoDB registry). */
  public boolean hasLocalRoots() {
    return !localRoots.isEmpty();
  }

  /**
   * Whether {@code location} (an {@code s3://}, {@code s3a://} or {@code s3n://} URI, a {@code
   * file:} URI or an absolute path) lies under an allowed location by the rules of the class
   * comment. Never follows a link; stats only components under an allowed local root.
   */
  public boolean allows(String location) {
    if (location == null || location.isEmpty() || unsafeCharacters(location)) {
      return false;
    }
    int colon = location.indexOf("://");
    String scheme = colon < 0 ? "" : location.substring(0, colon).toLowerCase(Locale.ROOT);
    if (scheme.equals("s3") || scheme.equals("s3a") || scheme.equals("s3n")) {
      Optional<String> normal = s3("s3://" + location.substring(colon + 3));
      return normal.isPresent() && s3Prefixes.stream().anyMatch(normal.get()::startsWith);
    }
    Optional<Path> path = localPath(location);
    if (path.isEmpty()) {
      return false;
    }
    for (String root : localRoots) {
      if (path.get().startsWith(root)) {
        return noLinkBelow(Path.of(root), path.get());
      }
    }
    return false;
  }

  /**
   * Refuses to register a table at {@code location} outside the allowed locations, with {@link
   * ErrorCode#INVALID_ARGUMENT} naming the location (the operator's own input) and the flag.
   */
  public void checkRegistration(String location) {
    if (!allows(location)) {
      throw new LakeException(
          ErrorCode.INVALID_ARGUMENT,
          "Location "
              + location
              + " lies outside this deployment's data locations "
              + FLAG
              + ", or is not normalized (no '.', '..', '%', '?', '#', links)");
    }
  }

  /**
   * Fails a read of table {@code ref} that would touch {@code location} outside the allowed
   * locations: {@link ErrorCode#PERMISSION_DENIED} naming the table, never the location, with one
   * text whatever the location is or whether it exists. Call it before anything opens the location.
   */
  public void checkRead(TableRef ref, String location) {
    requireNonNull(ref, "ref is null");
    if (!allows(location)) {
      throw outside(ref);
    }
  }

  /** The error of {@link #checkRead}. */
  public static LakeException outside(TableRef ref) {
    return new LakeException(
        ErrorCode.PERMISSION_DENIED,
        "Table "
            + ref
            + " refers to data outside this deployment's data locations; lake does not read it"
            + " (an operator can allow the location with "
            + FLAG
            + ")");
  }

  /** {@code registry} whose {@link Registry#register} first checks {@link #checkRegistration}. */
  public Registry confine(Registry registry) {
    return new ConfinedRegistry(registry, this);
  }

  @Override
  public String toString() {
    List<String> all = new ArrayList<>(s3Prefixes);
    all.addAll(localRoots);
    return String.join(",", all);
  }

  private static boolean unsafeCharacters(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '%' || c == '?' || c == '#' || c == '\\') {
        return true;
      }
    }
    return false;
  }

  /** {@code s3://bucket/key} with a valid bucket and a key of plain segments, else empty. */
  private static Optional<String> s3(String uri) {
    if (unsafeCharacters(uri)) {
      return Optional.empty();
    }
    String rest = uri.substring(5);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    String key = slash < 0 ? "" : rest.substring(slash + 1);
    if (!BUCKET.matcher(bucket).matches()) {
      return Optional.empty();
    }
    String[] segments = key.split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      String s = segments[i];
      boolean last = i == segments.length - 1;
      if (s.equals(".") || s.equals("..") || (s.isEmpty() && !last)) {
        return Optional.empty();
      }
    }
    return Optional.of("s3://" + bucket + "/" + key);
  }

  /** The absolute path of a {@code file:} URI (no host but localhost) or an absolute path. */
  private static Optional<Path> localPath(String location) {
    if (unsafeCharacters(location)) {
      return Optional.empty();
    }
    String path;
    if (location.startsWith("file:")) {
      try {
        URI uri = URI.create(location);
        String host = uri.getAuthority();
        if (host != null && !host.isEmpty() && !host.equals("localhost")) {
          return Optional.empty();
        }
        path = uri.getPath();
      } catch (IllegalArgumentException e) {
        return Optional.empty();
      }
    } else {
      path = location;
    }
    if (path == null || !path.startsWith("/")) {
      return Optional.empty();
    }
    try {
      Path p = Path.of(path);
      for (Path name : p) {
        if (name.toString().equals(".") || name.toString().equals("..")) {
          return Optional.empty();
        }
      }
      return Optional.of(p);
    } catch (java.nio.file.InvalidPathException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether no component of {@code path} below {@code root} is a symbolic link and a regular file
   * at {@code path} has one hard link. Components are read without following links.
   */
  private static boolean noLinkBelow(Path root, Path path) {
    Path at = root;
    for (Path name : root.relativize(path)) {
      if (name.toString().isEmpty()) {
        continue; // path equals root
      }
      at = at.resolve(name);
      BasicFileAttributes attributes;
      try {
        attributes = Files.readAttributes(at, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        return true; // the rest does not exist: reading it fails as a missing file
      } catch (IOException e) {
        return false;
      }
      if (attributes.isSymbolicLink() || attributes.isOther()) {
        return false;
      }
      if (attributes.isRegularFile() && !at.equals(path)) {
        return false; // a file in the middle of a path
      }
      if (attributes.isRegularFile() && hardLinks(at) != 1) {
        return false;
      }
    }
    return true;
  }

  private static long hardLinks(Path file) {
    try {
      return ((Number) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS))
          .longValue();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return -1; // unknown: refused
    }
  }

  private static List<String> rootAndRealPath(Path dir) {
    Path given = dir.toAbsolutePath().normalize();
    try {
      Path real = given.toRealPath();
      return real.equals(given)
          ? List.of(given.toString())
          : List.of(given.toString(), real.toString());
    } catch (IOException e) {
      return List.of(given.toString());
    }
  }

  private static IllegalArgumentException bad(String entry, String why) {
    return new IllegalArgumentException(FLAG + " entry '" + entry + "' " + why);
  }
}
