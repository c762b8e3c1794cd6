package dev.lake.iceberg;

import static java.util.Objects.requireNonNull;

import dev.lake.core.DataLocations;
import dev.lake.core.ErrorCode;
import dev.lake.core.LakeException;
import dev.lake.core.TableRef;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestListFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * The {@link FileIO} of one table as lake reads it: every file it is asked for (manifest lists,
 * manifests, data and delete files, by every overload) is checked against the deployment's {@link
 * DataLocations} before the table's own FileIO sees the location, so nothing outside is opened or
 * stat'ed; a location outside fails with {@code PERMISSION_DENIED} naming the table only.
 * Read-only: writing or deleting fails.
 */
final class ConfinedFileIO implements FileIO {
  private static final long serialVersionUID = 1L;

  private final transient FileIO io;
  private final TableRef ref;
  private final transient DataLocations locations;

  ConfinedFileIO(FileIO io, TableRef ref, DataLocations locations) {
    this.io = requireNonNull(io, "io is null");
    this.ref = requireNonNull(ref, "ref is null");
    this.locations = requireNonNull(locations, "locations is null");
  }

  /** Fails unless {@code location} lies under the data locations (before anything touches it). */
  void check(String location) {
    locations.checkRead(ref, location);
  }

  @Override
  public InputFile newInputFile(String path) {
    check(path);
    return io.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    check(path);
    return io.newInputFile(path, length);
  }

  @Override
  public InputFile newInputFile(DataFile file) {
    check(file.location());
    return io.newInputFile(file);
  }

  @Override
  public InputFile newInputFile(DeleteFile file) {
    check(file.location());
    return io.newInputFile(file);
  }

  @Override
  public InputFile newInputFile(ManifestFile manifest) {
    check(manifest.path());
    return io.newInputFile(manifest);
  }

  @Override
  public InputFile newInputFile(ManifestListFile manifestList) {
    check(manifestList.location());
    return io.newInputFile(manifestList);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    throw readOnly();
  }

  @Override
  public void deleteFile(String path) {
    throw readOnly();
  }

  @Override
  public Map<String, String> properties() {
    return io.properties();
  }

  /** Leaves the table's own FileIO open: the catalog may share it between tables. */
  @Override
  public void close() {
    // nothing of its own to release
  }

  private LakeException readOnly() {
    return new LakeException(ErrorCode.INTERNAL, "lake reads Iceberg table " + ref + " only");
  }
}
