package dev.lake.images;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * No Docker engine here: the images are checked by their inputs. Every file the Dockerfiles COPY
 * exists after {@code mvn package}, the classes their entry points name are in the copied jars, and
 * no test, benchmark or foreign-platform native file enters. Runs in the integration-test phase,
 * after the layout is written at package.
 */
class DockerfileInputsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String ARCH = System.getProperty("lake.image.arch", "x86_64");

  @Test
  void frontDoorDockerfile_copiesExistingFilesWithTheServeEntryPoint() throws IOException {
    List<Path> sources = copiedSources("frontdoor/Dockerfile");
    assertThat(sources).hasSize(3);
    String entrypoint = Files.readString(ROOT.resolve("frontdoor/docker/entrypoint.sh"));
    assertThat(entrypoint).contains("dev.lake.app.LakeCli serve");
    assertThat(jarsUnder(ROOT.resolve("images/target/frontdoor/app")))
        .anySatisfy(jar -> assertThat(hasEntry(jar, "dev/lake/app/LakeCli.class")).isTrue());
    checkJars(ROOT.resolve("images/target/frontdoor"));
  }

  @Test
  void frontDoorDockerfile_setsTheGlibcMallocSettingsOfBinLakeAndTheBenchServer()
      throws IOException {
    // the image, bin/lake and the bench's server JVM run the front door with the same settings
    // (docs/operations-config.md, docs/bench.md), so the bench measures what ships
    String dockerfile = Files.readString(ROOT.resolve("frontdoor/Dockerfile"));
    String binLake = Files.readString(ROOT.resolve("bin/lake"));
    String benchRun = Files.readString(ROOT.resolve("bench/run.sh"));
    for (String setting :
        List.of("MALLOC_TRIM_THRESHOLD_=268435456", "MALLOC_MMAP_THRESHOLD_=67108864")) {
      assertThat(dockerfile).contains(setting);
      String[] nameValue = setting.split("=");
      String export =
          "export " + nameValue[0] + "=\"${" + nameValue[0] + ":-" + nameValue[1] + "}\"";
      assertThat(binLake).contains(export);
      assertThat(benchRun).contains(export);
    }
  }

  @Test
  void workerDockerfile_copiesExistingFilesWithTheHandlerItNames() throws IOException {
    copiedSources("worker-lambda/Dockerfile");
    String dockerfile = Files.readString(ROOT.resolve("worker-lambda/Dockerfile"));
    assertThat(dockerfile).contains("FROM public.ecr.aws/lambda/java:17");
    Matcher cmd = Pattern.compile("CMD \\[\"([\\w.]+)::handleRequest\"]").matcher(dockerfile);
    assertThat(cmd.find()).as("CMD names the handler").isTrue();
    String handler = cmd.group(1).replace('.', '/') + ".class";
    assertThat(jarsUnder(ROOT.resolve("images/target/worker/app")))
        .anySatisfy(jar -> assertThat(hasEntry(jar, handler)).isTrue());
    checkJars(ROOT.resolve("images/target/worker"));
  }

  @Test
  void lanceJar_keepsOnlyTheNativeLibraryOfTheTargetArchitecture() throws IOException {
    Path lance =
        jarsUnder(ROOT.resolve("images/target/worker/deps")).stream()
            .filter(j -> j.getFileName().toString().startsWith("lance-core"))
            .findFirst()
            .orElseThrow();
    String expected = ARCH.equals("x86_64") ? "linux-x86-64" : "linux-aarch64";
    try (ZipFile zip = new ZipFile(lance.toFile())) {
      assertThat(
              zip.stream()
                  .map(e -> e.getName())
                  .filter(n -> n.startsWith("nativelib/") && !n.endsWith("/")))
          .isNotEmpty()
          .allSatisfy(n -> assertThat(n).startsWith("nativelib/" + expected + "/"));
      assertThat(zip.getEntry("org/lance/Dataset.class")).isNotNull();
    }
  }

  /** The COPY sources of a Dockerfile (context = repository root); each must exist. */
  private static List<Path> copiedSources(String dockerfile) throws IOException {
    List<Path> sources = new ArrayList<>();
    for (String line : Files.readAllLines(ROOT.resolve(dockerfile))) {
      String l = line.strip();
      if (!l.startsWith("COPY ")) {
        continue;
      }
      List<String> args = new ArrayList<>(List.of(l.substring(5).strip().split("\\s+")));
      args.removeIf(a -> a.startsWith("--"));
      assertThat(args).as(line).hasSizeGreaterThanOrEqualTo(2);
      for (String source : args.subList(0, args.size() - 1)) {
        Path p = ROOT.resolve(source);
        assertThat(p).as(dockerfile + ": " + source).exists();
        if (Files.isDirectory(p)) {
          try (Stream<Path> s = Files.list(p)) {
            assertThat(s.count()).as(dockerfile + ": " + source + " is empty").isPositive();
          }
        } else {
          assertThat(Files.size(p)).as(source).isPositive();
        }
        sources.add(p);
      }
    }
    assertThat(sources).as(dockerfile + " copies something").isNotEmpty();
    return sources;
  }

  /** No test, source or benchmark jar; no native library of another system or architecture. */
  private static void checkJars(Path image) throws IOException {
    ImageLayout layout = new ImageLayout(ARCH);
    List<Path> jars = jarsUnder(image);
    assertThat(jars).isNotEmpty();
    long bytes = 0;
    for (Path jar : jars) {
      String name = jar.getFileName().toString();
      assertThat(name).doesNotEndWith("-tests.jar").doesNotEndWith("-sources.jar");
      assertThat(name)
          .doesNotStartWith("lake-bench")
          .doesNotStartWith("junit")
          .doesNotStartWith("assertj");
      try (ZipFile zip = new ZipFile(jar.toFile())) {
        zip.stream()
            .map(e -> e.getName())
            .filter(DockerfileInputsTest::isNative)
            .forEach(n -> assertThat(layout.keepNative(n)).as(name + "!" + n).isTrue());
      }
      bytes += Files.size(jar);
    }
    System.out.printf(
        Locale.ROOT,
        "[image] %s: %d jars, %.1f MiB%n",
        image.getFileName(),
        jars.size(),
        bytes / 1048576.0);
  }

  private static boolean isNative(String entry) {
    String n = entry.toLowerCase(Locale.ROOT);
    return n.endsWith(".so")
        || n.endsWith(".dylib")
        || n.endsWith(".dll")
        || n.endsWith(".jnilib")
        || n.matches(".*\\.so_[a-z0-9_]+$");
  }

  private static List<Path> jarsUnder(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
  }

  private static boolean hasEntry(Path jar, String entry) {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      return zip.getEntry(entry) != null;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
