package dev.hicachesync.storage;

import static dev.hicachesync.storage.StorageBackendContractTest.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --fresh-storage} ({@link FileStorageBackend#clear}) deletes only what the tool wrote, and only in a
 * folder the tool made a store: the marker is written when a store is created in an empty folder; a folder
 * without it that holds anything is refused with nothing deleted; in a marked store, files in its page folders
 * that are not its page objects (by their header, not their name) stay, as do other folders.
 */
class FreshStoreTest {
  @TempDir Path tmp;

  /** The user's files that a careless clear deleted: names that look like ours, contents that are not. */
  private static List<Path> userFiles(Path root) throws IOException {
    Path chapter = root.resolve("docs/chapter1.page");
    Path mine = root.resolve("ab/my.page");
    Path temp = root.resolve("ab/.put-mine.tmp");
    for (Path p : List.of(chapter, mine, temp)) {
      Files.createDirectories(p.getParent());
      Files.writeString(p, "the user's own file");
    }
    return List.of(chapter, mine, temp);
  }

  @Test
  void aStoreCreatedInAnEmptyFolderIsMarkedAndEmptiedOfItsOwnFilesOnly() throws IOException {
    Path root = tmp.resolve("store");
    FileStorageBackend store = new FileStorageBackend(root);
    assertTrue(Files.isRegularFile(root.resolve(OwnFiles.MARKER)), "the tool marks the store it creates");
    for (int i = 0; i < 20; i++) {
      store.put(PageKey.first(new int[] {i}).withSuffix(i % 2 == 0 ? "" : "tp1/x"), bytes(i, 64));
    }
    Path stray = store.pathOf(PageKey.first(new int[] {0})).resolveSibling(".put-123456789.tmp");
    Files.writeString(stray, "a crashed writer's");
    List<Path> user = userFiles(root);
    // A file named like a page object of this store, whose header names another key: not this path's object.
    Path elsewhere = store.pathOf(PageKey.first(new int[] {99}));
    Files.createDirectories(elsewhere.getParent());
    Files.copy(store.pathOf(PageKey.first(new int[] {0})), elsewhere);

    FileStorageBackend.Cleared c = FileStorageBackend.clear(root);
    assertEquals(20, c.pageObjects(), c.toString());
    assertEquals(1, c.tempFiles(), c.toString());
    assertEquals(3, c.kept(), "ab/my.page, ab/.put-mine.tmp and the misplaced object: " + c);
    for (Path p : user) {
      assertTrue(Files.exists(p), p + " is the user's and stays");
    }
    assertTrue(Files.exists(elsewhere), "an object at another key's path is not this store's object there");
    assertFalse(Files.exists(stray));
    try (Stream<Path> all = Files.walk(root)) {
      assertEquals(0, all.filter(p -> p.toString().endsWith(".page") && !user.contains(p) && !p.equals(elsewhere))
          .count(), "every page object of the store is gone");
    }
    assertTrue(c.describe(root).startsWith("fresh storage: removed 20 page object(s) and 1 temporary file(s)"),
        c.describe(root));
  }

  @Test
  void aFolderWithoutTheMarkerIsRefusedAndNothingInItIsDeleted() throws IOException {
    Path root = tmp.resolve("docs");
    List<Path> user = userFiles(root);
    // The tool writes here too (a reused folder is not marked: it was not empty), then is asked to empty it.
    FileStorageBackend store = new FileStorageBackend(root);
    store.put(PageKey.first(new int[] {1}), bytes(1, 64));
    assertFalse(Files.exists(root.resolve(OwnFiles.MARKER)), "a folder that held files is not made a store");
    StorageRootException e = assertThrows(StorageRootException.class, () -> FileStorageBackend.clear(root));
    assertTrue(e.getMessage().contains("no store marker") && e.getMessage().contains("deletes nothing"),
        e.getMessage());
    for (Path p : user) {
      assertTrue(Files.exists(p), p.toString());
    }
    assertTrue(Files.exists(store.pathOf(PageKey.first(new int[] {1}))), "nothing deleted at all");
  }

  @Test
  void anEmptyOrMissingFolderHasNothingToClear() throws IOException {
    assertEquals(0, FileStorageBackend.clear(tmp.resolve("missing")).pageObjects());
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    assertEquals(0, FileStorageBackend.clear(empty).pageObjects());
  }

  /** The bounded layout: one marked store per rank under the folder, each emptied; the folder itself unmarked. */
  @Test
  void eachRankStoreOfTheBoundedLayoutIsEmptied() throws IOException {
    Path root = Files.createDirectories(tmp.resolve("bounded"));
    for (int r = 0; r < 2; r++) {
      new FileStorageBackend(root.resolve("rank-" + r)).put(PageKey.first(new int[] {r}), bytes(r, 64));
    }
    Files.writeString(root.resolve("notes.txt"), "the user's");
    FileStorageBackend.Cleared c = FileStorageBackend.clear(root);
    assertEquals(2, c.pageObjects());
    assertEquals(2, c.stores().size());
    assertTrue(Files.exists(root.resolve("notes.txt")));
  }

  /** Opening a store removes a crashed writer's temporary files, and only those: not the user's look-alikes. */
  @Test
  void openingRemovesOnlyTheToolsOwnTemporaryFiles() throws IOException {
    Path root = tmp.resolve("s");
    FileStorageBackend store = new FileStorageBackend(root);
    store.put(PageKey.first(new int[] {4}), bytes(4, 64));
    Path folder = store.pathOf(PageKey.first(new int[] {4})).getParent();
    Path ours = folder.resolve(".put-8172635.tmp");
    Path theirs = folder.resolve(".put-mine.tmp");
    Files.writeString(ours, "x");
    Files.writeString(theirs, "y");
    FileStorageBackend again = new FileStorageBackend(root);
    assertEquals(1, again.tempFilesRemoved());
    assertFalse(Files.exists(ours));
    assertTrue(Files.exists(theirs));
  }
}
