package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStorageBackendTest extends StorageBackendContractTest {
  @TempDir Path tmp;
  Path root;

  @Override
  protected StorageBackend newBackend() {
    root = tmp.resolve("store");
    return new FileStorageBackend(root);
  }

  private FileStorageBackend file() {
    return (FileStorageBackend) store;
  }

  private static List<Path> filesUnder(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      // The store's marker (written when the store was created) is no object.
      return s.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals(OwnFiles.MARKER)).toList();
    }
  }

  @Test
  void keysThatTryToEscapeTheRootStayInside() throws IOException {
    PageKey base = PageKey.first(new int[] {1});
    for (String evil : List.of("../../../escaped", "..", "/etc/passwd", "..\\..\\x", "a/../../b", "\u0000", ".")) {
      PageKey k = base.withSuffix(evil);
      Path p = file().pathOf(k);
      assertTrue(p.startsWith(root.toAbsolutePath().normalize()), evil + " -> " + p);
      assertFalse(p.getFileName().toString().contains(".."), evil + " -> " + p);
      store.put(k, bytes(5, 16));
      ByteBuffer dst = ByteBuffer.allocate(16);
      assertTrue(store.get(k, dst));
      assertEquals(bytes(5, 16), dst.flip());
    }
    List<Path> outside = filesUnder(tmp).stream().filter(p -> !p.startsWith(root)).toList();
    assertEquals(List.of(), outside, "nothing written outside the root");
    assertEquals(7, filesUnder(root).size(), "one object per distinct key, no collisions");
  }

  @Test
  void corruptedObjectIsReportedNotReturned() throws IOException {
    PageKey k = PageKey.first(new int[] {2});
    store.put(k, bytes(9, 32));
    Path p = file().pathOf(k);
    byte[] raw = Files.readAllBytes(p);
    raw[PageObjectFormat.HEADER_BYTES + 5] ^= 0x40; // flip one payload bit
    Files.write(p, raw);
    assertTrue(store.exists(k), "existence does not read data");
    CorruptPageException e = assertThrows(CorruptPageException.class, () -> store.get(k, ByteBuffer.allocate(32)));
    assertTrue(e.getMessage().contains("CRC32C") && e.getMessage().contains(k.toString()), e.getMessage());

    Files.write(p, new byte[] {1, 2, 3});
    assertThrows(CorruptPageException.class, () -> store.get(k, ByteBuffer.allocate(32)));
    raw[0] = 0;
    Files.write(p, raw);
    assertTrue(assertThrows(CorruptPageException.class, () -> store.get(k, ByteBuffer.allocate(32)))
        .getMessage().contains("magic"));
  }

  @Test
  void concurrentReaderSeesOldOrNewObjectWholeAndNoTempFilesRemain() throws Exception {
    PageKey k = PageKey.first(new int[] {3});
    ByteBuffer a = bytes(1, 4096);
    ByteBuffer b = bytes(2, 4096);
    store.put(k, a.duplicate());
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread reader = new Thread(() -> {
      ByteBuffer dst = ByteBuffer.allocate(4096);
      try {
        while (!stop.get()) {
          dst.clear();
          assertTrue(store.get(k, dst), "never absent during an overwrite");
          dst.flip();
          assertTrue(dst.equals(a) || dst.equals(b), "a whole object");
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    });
    reader.start();
    for (int i = 0; i < 300 && failure.get() == null; i++) {
      store.put(k, (i % 2 == 0 ? b : a).duplicate());
    }
    stop.set(true);
    reader.join();
    assertEquals(null, failure.get());
    assertEquals(1, filesUnder(root).size(), "only the object; temp files were renamed away");
  }

  @Test
  void reopenedStoreSeesEarlierObjects() {
    PageKey k = PageKey.first(new int[] {4}).withSuffix("tp1");
    store.put(k, bytes(4, 8));
    FileStorageBackend again = new FileStorageBackend(root, /* fsync= */ true);
    assertTrue(again.exists(k));
    assertTrue(again.describe().contains("fsync"));
  }
}
