package dev.hicachesync.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** {@link FileSync#SYSTEM}: fsync(2) of the file, and of the folder opened read-only (Linux allows it). */
final class SystemFileSync implements FileSync {
  @Override
  public void forceFile(FileChannel file) throws IOException {
    file.force(/* metaData= */ true);
  }

  @Override
  public void forceFolder(Path folder) throws IOException {
    try (FileChannel dir = FileChannel.open(folder, StandardOpenOption.READ)) {
      dir.force(/* metaData= */ true);
    }
  }
}
