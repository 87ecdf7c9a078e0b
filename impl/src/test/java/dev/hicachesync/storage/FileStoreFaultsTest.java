package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged or hostile file store: swapped, cut and flipped objects read as corrupt, a crashed
 * writer's leftovers are removed at open, a killed writer leaves only whole pages, symlinked page folders
 * and unusable roots are refused by name.
 */
class FileStoreFaultsTest {
  @TempDir Path tmp;

  private static ByteBuffer page(int seed) {
    return StorageBackendContractTest.bytes(seed, 64);
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /** Two objects with valid checksums swapped on disk: each names its own key, so both reads fail. */
  @Test
  void swappedObjectsAreCorruptBecauseEachNamesItsKey() throws IOException {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    PageKey a = PageKey.first(new int[] {1});
    PageKey b = PageKey.first(new int[] {2});
    store.put(a, page(1));
    store.put(b, page(2));
    Path pa = store.pathOf(a);
    Path pb = store.pathOf(b);
    byte[] ra = Files.readAllBytes(pa);
    Files.write(pa, Files.readAllBytes(pb));
    Files.write(pb, ra);
    ByteBuffer dst = ByteBuffer.allocate(64);
    CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.get(a, dst));
    assertTrue(e.getMessage().contains("is page " + b), e.getMessage());
    assertEquals(0, dst.position(), "nothing copied out of a corrupt object");
    assertThrows(CorruptPageException.class, () -> store.get(b, ByteBuffer.allocate(64)));
  }

  /** A truncated object (cut anywhere) is corrupt, not a short page. */
  @Test
  void truncatedObjectsAreCorruptAtEveryLength() throws IOException {
    FileStorageBackend store = new FileStorageBackend(tmp.resolve("s"));
    PageKey k = PageKey.first(new int[] {3});
    store.put(k, page(3));
    byte[] whole = Files.readAllBytes(store.pathOf(k));
    for (int len = 0; len < whole.length; len++) {
      Files.write(store.pathOf(k), java.util.Arrays.copyOf(whole, len));
      ByteBuffer dst = ByteBuffer.allocate(64);
      assertThrows(CorruptPageException.class, () -> store.get(k, dst), "cut at " + len);
      assertEquals(0, dst.position(), "nothing copied when cut at " + len);
    }
  }

  /** Temporary files of a crashed writer are removed on open; the pages found are counted. */
  @Test
  void openRemovesStrayTempFilesAndCountsPages() throws IOException {
    Path root = tmp.resolve("s");
    FileStorageBackend store = new FileStorageBackend(root);
    assertEquals(0, store.pagesAtOpen());
    PageKey k = PageKey.first(new int[] {4});
    store.put(k, page(4));
    Path stray = store.pathOf(k).resolveSibling(".put-123.tmp");
    Files.write(stray, new byte[] {1, 2, 3});
    FileStorageBackend again = new FileStorageBackend(root);
    assertFalse(Files.exists(stray), "stray temp file removed");
    assertEquals(1, again.tempFilesRemoved());
    assertEquals(1, again.pagesAtOpen());
    assertTrue(again.get(k, ByteBuffer.allocate(64)));
  }

  /** A page folder that is a symlink to a folder outside the root is refused, at open and at put. */
  @Test
  void symlinkedPageFoldersAreRefusedAndNothingIsWrittenOutside() throws IOException {
    Path root = tmp.resolve("s");
    Path outside = Files.createDirectories(tmp.resolve("outside"));
    FileStorageBackend store = new FileStorageBackend(root);
    PageKey k = PageKey.first(new int[] {5});
    Path folder = store.pathOf(k).getParent();
    Files.createSymbolicLink(folder, outside);
    StorageRootException put = assertThrows(StorageRootException.class, () -> store.put(k, page(5)));
    assertTrue(put.getMessage().contains(folder.getFileName().toString()) && put.getMessage().contains("symlink"),
        put.getMessage());
    StorageRootException open = assertThrows(StorageRootException.class, () -> new FileStorageBackend(root));
    assertTrue(open.getMessage().contains("outside the root"), open.getMessage());
    assertEquals(List.of(), files(outside), "nothing written through the link");
  }

  /** A root that cannot be made or written is refused with its name and the reason, before any use. */
  @Test
  void unusableRootsAreRefusedByName() throws IOException {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    for (Path bad : List.of(Path.of("/proc/hicache-store"), file, file.resolve("sub"))) {
      StorageRootException e = assertThrows(StorageRootException.class, () -> FileStorageBackend.checkRoot(bad));
      assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
      assertEquals(1, e.getMessage().lines().count());
    }
    assertEquals(tmp.toRealPath().resolve("ok"), FileStorageBackend.checkRoot(tmp.resolve("ok")));
    assertEquals(List.of(), files(tmp.resolve("ok")), "the probe file is gone");
  }

  /**
   * A writer JVM killed with SIGKILL in the middle of its puts: the store opens clean (no temp file), every
   * page whose put returned is readable whole, and no object present is partial.
   */
  @Test
  void aWriterKilledMidWriteLeavesACleanStore() throws Exception {
    Path root = tmp.resolve("s");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        StoreWriterProcess.class.getName(), root.toString()).redirectErrorStream(true).start();
    int lastDone = -1;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (!line.startsWith("done ")) {
          throw new AssertionError("writer said: " + line);
        }
        lastDone = Integer.parseInt(line.substring(5));
        if (lastDone >= 40) {
          child.destroyForcibly(); // SIGKILL: no shutdown hook, no finally block runs
          break;
        }
      }
    } finally {
      child.destroyForcibly();
      assertTrue(child.waitFor(60, TimeUnit.SECONDS), "writer ended");
    }
    assertTrue(lastDone >= 40, "writer got going (last done " + lastDone + ")");
    FileStorageBackend store = new FileStorageBackend(root);
    assertTrue(files(root).stream().noneMatch(p -> p.getFileName().toString().endsWith(".tmp")),
        "no temp file after open");
    for (int i = 0; i <= lastDone; i++) {
      ByteBuffer dst = ByteBuffer.allocate(64 * 1024);
      assertTrue(store.get(StoreWriterProcess.key(i), dst), "complete page " + i + " present");
      assertEquals(StoreWriterProcess.payload(i), dst.flip(), "complete page " + i + " whole");
    }
    long present = 0;
    for (int i = 0; store.exists(StoreWriterProcess.key(i)); i++) {
      assertTrue(store.get(StoreWriterProcess.key(i), ByteBuffer.allocate(64 * 1024)), "page " + i);
      present++;
    }
    assertEquals(present, store.pagesAtOpen(), "every object present is a whole page of the writer");
  }
}
