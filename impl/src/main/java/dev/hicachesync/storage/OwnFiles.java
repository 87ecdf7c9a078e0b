package dev.hicachesync.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Pattern;

/**
 * Which files under a store's folder the tool itself wrote, and the marker that says the folder is a store.
 *
 * <p>Why so strict: a store folder is a user's path ({@code --storage-dir}), and a mistyped one may hold
 * anything. Removing files ({@code --fresh-storage}, the leftovers of a crashed writer) must touch only what
 * this tool made: a page object is a file whose header names a key that maps to exactly this file's path
 * (not merely a name ending in {@code .page}), and a temporary file is named as {@code Files.createTempFile}
 * names ours ({@code .put-} and digits), not anything that starts with {@code .put-}.
 */
final class OwnFiles {
  /** The file that marks a folder as a store this tool created (written when the store is created). */
  static final String MARKER = ".hicache-sync-store";
  /** A put's temporary file, or the writable-folder probe's, as {@code Files.createTempFile} names them. */
  private static final Pattern TEMP = Pattern.compile("\\.put-(probe-)?[0-9]+\\.tmp");
  /** A page folder: the first two hex digits of the hashes it holds. */
  private static final Pattern PAGE_FOLDER = Pattern.compile("[0-9a-f]{2}");

  private OwnFiles() {}

  /** Whether {@code name} is one of this tool's temporary files (a put's or the probe's). */
  static boolean isTempName(String name) {
    return TEMP.matcher(name).matches();
  }

  /** Whether {@code name} can be a page folder ({@code root/xx}). */
  static boolean isPageFolderName(String name) {
    return PAGE_FOLDER.matcher(name).matches();
  }

  /** Whether {@code root} carries the marker of a store this tool created. */
  static boolean isMarked(Path root) {
    return Files.isRegularFile(root.resolve(MARKER), LinkOption.NOFOLLOW_LINKS);
  }

  /** Writes the marker into {@code root} unless it is there (another process may write it at the same time). */
  static void mark(Path root) throws IOException {
    try {
      Files.writeString(root.resolve(MARKER), "hicache-sync page store (objects HCP2, one folder per two hex"
          + " digits of the key's hash); --fresh-storage removes only the page objects it wrote here\n",
          StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // another rank process created the same store a moment ago
    }
  }

  /**
   * Whether {@code file} is a page object this tool wrote under {@code paths}' root: a regular file (not a
   * link) whose header has the object magic and names a key that {@link KeyPaths} maps to this very path.
   * Reads at most the header and the key; never the payload.
   */
  static boolean isPageObject(KeyPaths paths, Path file) {
    if (!file.getFileName().toString().endsWith(KeyPaths.PAGE_EXT)
        || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    ByteBuffer head = ByteBuffer.allocate(PageObjectFormat.HEADER_BYTES + PageObjectFormat.MAX_NAME_BYTES);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      while (head.hasRemaining() && ch.read(head) >= 0) {
        // read the header and as much of the key as there is
      }
    } catch (IOException e) {
      return false;
    }
    if (head.position() < PageObjectFormat.HEADER_BYTES || head.getInt(0) != PageObjectFormat.MAGIC) {
      return false;
    }
    int nameLength = head.getInt(12);
    if (nameLength < 64 || nameLength > PageObjectFormat.MAX_NAME_BYTES
        || head.position() < PageObjectFormat.HEADER_BYTES + nameLength) {
      return false;
    }
    String name = new String(head.array(), PageObjectFormat.HEADER_BYTES, nameLength, StandardCharsets.UTF_8);
    int at = name.indexOf('@');
    try {
      PageKey key = at < 0 ? PageKey.ofHash(name) : PageKey.ofHash(name.substring(0, at)).withSuffix(name.substring(at + 1));
      return paths.pathOf(key).equals(file);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
