package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The child JVM of {@link FileStoreFaultsTest#aWriterKilledMidWriteLeavesACleanStore}: writes pages of
 * 64 KiB with durability on, forever, and prints {@code done N} after page N's put returned, so that the
 * parent knows which pages are complete when it kills this process with SIGKILL.
 */
public final class StoreWriterProcess {
  private StoreWriterProcess() {}

  /** Returns page {@code i}'s key. */
  static PageKey key(int i) {
    return PageKey.first(new int[] {i, 17});
  }

  /** Returns page {@code i}'s payload (64 KiB, so that a kill often lands inside a write). */
  static ByteBuffer payload(int i) {
    return StorageBackendContractTest.bytes(i, 64 * 1024);
  }

  public static void main(String[] args) {
    FileStorageBackend store = new FileStorageBackend(Path.of(args[0]), /* fsync= */ true);
    for (int i = 0; ; i++) {
      store.put(key(i), payload(i));
      System.out.println("done " + i);
      System.out.flush();
    }
  }
}
