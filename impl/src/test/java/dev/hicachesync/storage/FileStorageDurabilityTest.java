package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves what a durable put asks of the disk through the {@link FileSync} seam: the temporary object is
 * forced whole before the rename (the target does not exist yet), then the folder after the rename (the
 * target exists); without durability neither is called.
 */
class FileStorageDurabilityTest {
  @TempDir Path tmp;

  /** A {@link FileSync} double that records each call with what the disk showed at that moment. */
  static final class RecordingSync implements FileSync {
    final List<String> calls = new ArrayList<>();
    Path target;

    @Override
    public void forceFile(FileChannel file) throws IOException {
      calls.add("file size=" + file.size() + " target=" + Files.exists(target));
    }

    @Override
    public void forceFolder(Path folder) {
      calls.add("folder " + folder.equals(target.getParent()) + " target=" + Files.exists(target));
    }
  }

  @Test
  void aDurablePutForcesTheObjectBeforeTheRenameAndTheFolderAfterIt() {
    RecordingSync sync = new RecordingSync();
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"), /* fsync= */ true, sync);
    PageKey k = PageKey.first(new int[] {1, 2});
    sync.target = store.pathOf(k);
    int size = PageObjectFormat.header(k, ByteBuffer.allocate(64)).remaining() + 64;

    store.put(k, StorageBackendContractTest.bytes(3, 64));

    assertEquals(List.of("file size=" + size + " target=false", "folder true target=true"), sync.calls,
        "object forced whole before its rename, then its own folder after it");
    assertEquals(1, store.filesForced());
    assertEquals(1, store.foldersForced());

    sync.calls.clear();
    store.put(k, StorageBackendContractTest.bytes(4, 64)); // an overwrite: the old object is still there
    assertEquals(List.of("file size=" + size + " target=true", "folder true target=true"), sync.calls);
    assertTrue(store.describe().contains("fsync"), store.describe());
  }

  @Test
  void withoutDurabilityAPutForcesNothing() {
    RecordingSync sync = new RecordingSync();
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"), /* fsync= */ false, sync);
    PageKey k = PageKey.first(new int[] {5});
    sync.target = store.pathOf(k);

    store.put(k, StorageBackendContractTest.bytes(5, 64));
    store.put(k, StorageBackendContractTest.bytes(6, 64));

    assertEquals(List.of(), sync.calls);
    assertEquals(0, store.filesForced() + store.foldersForced());
  }

  @Test
  void theSystemSyncForcesARealFileAndFolder() throws IOException {
    // The production seam on a real file system: both calls succeed (a folder opened read-only can be
    // fsynced on Linux), so a durable store works outside tests.
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("real"), /* fsync= */ true);
    PageKey k = PageKey.first(new int[] {7});
    store.put(k, StorageBackendContractTest.bytes(7, 32));
    ByteBuffer dst = ByteBuffer.allocate(32);
    assertTrue(store.get(k, dst));
    assertEquals(1, store.foldersForced());
  }
}
