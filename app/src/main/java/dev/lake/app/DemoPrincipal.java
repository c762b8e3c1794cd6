package dev.lake.app;

import dev.lake.core.Grant;
import dev.lake.core.Registry;
import dev.lake.core.TableFormats;
import dev.lake.core.TableRef;
import dev.lake.frontdoor.PrincipalEntry;
import dev.lake.frontdoor.Principals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Local mode's principal: what it may read, and its principals file, which lake writes only while
 * nobody edited it. Lake keeps the SHA-256 of the file it wrote beside it ({@code
 * .principals.json.sha256}); a file whose content no longer matches was edited by hand and is left
 * exactly as it is (a file without that record predates it and was lake's own: it is rewritten).
 */
final class DemoPrincipal {
  private DemoPrincipal() {}

  /**
   * The demo grant ({@code lake.tpch}), every namespace of catalog {@code lake} in {@code
   * registry}, what the formats' settings expose (e.g. an Iceberg allowlist) and {@code extra} (the
   * {@code --grant} flags, each validated), without duplicates.
   */
  static List<String> grants(Registry registry, List<Object> formatSettings, List<String> extra) {
    Set<String> grants = new LinkedHashSet<>();
    grants.add(LocalLake.DEMO_GRANT);
    registry.list().stream()
        .map(Registry.Entry::ref)
        .filter(ref -> ref.catalog().equals(TableRef.LAKE))
        .map(ref -> Grant.namespace(ref.catalog(), ref.namespace()).toString())
        .sorted()
        .forEach(grants::add);
    TableFormats.installed().grantsToRead(formatSettings).stream()
        .map(Grant::toString)
        .forEach(grants::add);
    extra.stream().map(g -> Grant.parse(g).toString()).forEach(grants::add);
    return List.copyOf(grants);
  }

  /**
   * Writes {@code entries} to {@code file} unless someone edited the file lake wrote there last;
   * returns false when the file was left alone.
   */
  static boolean writeUnlessEdited(Path file, List<PrincipalEntry> entries) {
    Path record = file.resolveSibling("." + file.getFileName() + ".sha256");
    try {
      if (Files.exists(file) && Files.exists(record)) {
        String written = Files.readString(record, StandardCharsets.UTF_8).strip();
        if (!written.equals(sha256(file))) {
          return false;
        }
      }
      Principals.write(file, new ArrayList<>(entries));
      Files.writeString(record, sha256(file) + "\n", StandardCharsets.UTF_8);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the principals file " + file, e);
    }
  }

  private static String sha256(Path file) throws IOException {
    return Principals.sha256Hex(Files.readString(file, StandardCharsets.UTF_8));
  }
}
