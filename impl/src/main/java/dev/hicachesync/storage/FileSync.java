package dev.hicachesync.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * How a durable {@link FileStorageBackend} forces what it wrote to disk: the one seam between its put and
 * the {@code fsync} system calls, so a test can record which calls a put makes and in what order.
 *
 * <p>A durable put calls {@link #forceFile} on the temporary object before renaming it over its target
 * (otherwise a crash can leave the renamed name pointing at data that never reached the disk), then
 * {@link #forceFolder} on the folder after the rename (otherwise the rename itself can be lost). A put
 * without durability calls neither.
 */
public interface FileSync {
  /** The production implementation: {@link FileChannel#force} on the file, an fsync of the folder. */
  FileSync SYSTEM = new SystemFileSync();

  /** Forces the data and metadata of the open file {@code file} (the temporary object) to disk. */
  void forceFile(FileChannel file) throws IOException;

  /** Forces the entries of {@code folder} (the rename just made in it) to disk. */
  void forceFolder(Path folder) throws IOException;
}
