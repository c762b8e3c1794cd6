package dev.lake.images;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Lays out one image's files from a packaged module ({@code <module>/target/*.jar} plus its copied
 * runtime classpath {@code target/lib}): {@code app/} holds lake's own jars (small, change with
 * every release: the top layer), {@code deps/} the third-party jars (large, change rarely: the
 * layer below). Native libraries for other systems or architectures are left out: whole
 * per-platform jars (netty-tcnative classifiers) and the entries of multi-platform jars (Lance,
 * DuckDB, Arrow, zstd, snappy). Test, source and benchmark jars never enter. Writes {@code
 * layers.txt} with the sizes.
 *
 * <p>Usage: {@code ImageLayout <module target dir> <out dir> <x86_64|aarch64>}
 */
public final class ImageLayout {
  private static final Pattern NATIVE =
      Pattern.compile(".*(\\.so|\\.so\\.[0-9.]+|\\.dylib|\\.dll|\\.jnilib|\\.so_[a-z0-9_]+)$");
  private static final List<String> FOREIGN_OS =
      List.of("darwin", "osx", "mac/", "macos", "win", "freebsd", "sunos", "aix", "android");
  private static final List<String> X86_64 = List.of("x86_64", "x86-64", "amd64", "x64");
  private static final List<String> AARCH64 = List.of("aarch64", "aarch_64", "arm64");
  private static final List<String> OTHER_ARCH =
      List.of(
          "/x86/",
          "i386",
          "/arm/",
          "armv6",
          "armv7",
          "ppc",
          "s390x",
          "riscv64",
          "loongarch64",
          "mips64");

  private final String arch;

  ImageLayout(String arch) {
    if (!arch.equals("x86_64") && !arch.equals("aarch64")) {
      throw new IllegalArgumentException("arch must be x86_64 or aarch64: " + arch);
    }
    this.arch = arch;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: ImageLayout <module target> <out dir> <arch>");
    }
    Path target = Path.of(args[0]);
    if (!Files.isDirectory(target.resolve("lib"))) {
      throw new IllegalStateException(
          target.resolve("lib") + " does not exist: package the module first (mvn package)");
    }
    Layers layers = new ImageLayout(args[2]).layout(target, Path.of(args[1]));
    System.out.println("[image] " + args[1] + ": " + layers);
  }

  /** Sizes in bytes of the two layers this writes. */
  record Layers(long deps, long app, int depJars, int appJars) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "deps %d jars %.1f MiB, app %d jars %.2f MiB",
          depJars,
          deps / 1048576.0,
          appJars,
          app / 1048576.0);
    }
  }

  Layers layout(Path target, Path out) throws IOException {
    Path deps = recreate(out.resolve("deps"));
    Path app = recreate(out.resolve("app"));
    List<Path> jars = new ArrayList<>();
    try (Stream<Path> s = Files.list(target)) {
      s.filter(p -> p.toString().endsWith(".jar")).forEach(jars::add);
    }
    try (Stream<Path> s = Files.list(target.resolve("lib"))) {
      s.filter(p -> p.toString().endsWith(".jar")).forEach(jars::add);
    }
    long depBytes = 0;
    long appBytes = 0;
    int depCount = 0;
    int appCount = 0;
    for (Path jar : jars) {
      String name = jar.getFileName().toString();
      if (excluded(name)) {
        continue;
      }
      if (name.startsWith("lake-")) {
        Path copy = Files.copy(jar, app.resolve(name));
        appBytes += Files.size(copy);
        appCount++;
      } else {
        Path copy = deps.resolve(name);
        slim(jar, copy);
        depBytes += Files.size(copy);
        depCount++;
      }
    }
    Layers layers = new Layers(depBytes, appBytes, depCount, appCount);
    Files.writeString(
        out.resolve("layers.txt"),
        "arch=" + arch + "\ndeps.bytes=" + depBytes + "\napp.bytes=" + appBytes + "\n");
    return layers;
  }

  /** Jars that never enter an image: tests, sources, benchmarks, other platforms' classifiers. */
  boolean excluded(String jarName) {
    String n = jarName.toLowerCase(Locale.ROOT);
    if (n.endsWith("-tests.jar") || n.endsWith("-sources.jar") || n.endsWith("-javadoc.jar")) {
      return true;
    }
    if (n.startsWith("lake-bench") || n.startsWith("junit-") || n.startsWith("assertj-")) {
      return true;
    }
    // netty-tcnative-boringssl-static-<v>-<os>-<arch>.jar and similar platform classifiers
    if (n.matches(".*-(linux|osx|windows)-[a-z0-9_]+\\.jar")) {
      return !keepNative("/" + n.replace('-', '/') + ".so");
    }
    return false;
  }

  /** Whether a native library entry (path inside a jar) is for Linux on this architecture. */
  boolean keepNative(String entry) {
    String e = entry.toLowerCase(Locale.ROOT);
    if (e.endsWith(".dylib") || e.endsWith(".dll") || e.endsWith(".jnilib")) {
      return false;
    }
    for (String os : FOREIGN_OS) {
      if (e.contains(os)) {
        return false;
      }
    }
    boolean x86 = X86_64.stream().anyMatch(e::contains);
    boolean arm = AARCH64.stream().anyMatch(e::contains);
    if (x86 || arm) {
      return arch.equals("x86_64") ? x86 : arm;
    }
    // no architecture named: keep unless another architecture is
    return OTHER_ARCH.stream().noneMatch(e::contains);
  }

  private void slim(Path jar, Path copy) throws IOException {
    try (ZipFile in = new ZipFile(jar.toFile())) {
      boolean foreign =
          in.stream()
              .anyMatch(z -> NATIVE.matcher(z.getName()).matches() && !keepNative(z.getName()));
      if (!foreign) {
        Files.copy(jar, copy);
        return;
      }
      try (OutputStream os = Files.newOutputStream(copy);
          ZipOutputStream zip = new ZipOutputStream(os)) {
        in.stream()
            .filter(z -> !NATIVE.matcher(z.getName()).matches() || keepNative(z.getName()))
            .forEach(z -> copyEntry(in, z, zip));
      }
    }
  }

  private static void copyEntry(ZipFile in, ZipEntry entry, ZipOutputStream zip) {
    try (InputStream is = in.getInputStream(entry)) {
      ZipEntry next = new ZipEntry(entry.getName());
      next.setTime(entry.getTime());
      zip.putNextEntry(next);
      is.transferTo(zip);
      zip.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path recreate(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    return Files.createDirectories(dir);
  }
}
