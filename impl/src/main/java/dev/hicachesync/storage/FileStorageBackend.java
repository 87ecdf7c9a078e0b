package dev.hicachesync.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A {@link StorageBackend} on a local folder: one file per page key, written atomically, checksummed.
 *
 * <p>Design: {@code put} writes header + payload to a temporary file in the object's own folder and renames
 * it over the target with {@code ATOMIC_MOVE}, so a reader sees the old object or the new one, never a torn
 * one. A corrupted object (bad header, length or CRC32C) makes {@link #get} throw {@link
 * CorruptPageException}; {@link #exists} and {@link #leadingHits} only look for the file, like a storage
 * hit query that does not read data. I/O errors surface as {@link UncheckedIOException}. Keys are mapped to
 * names that cannot leave the root ({@link KeyPaths}). Thread-safe.
 */
public final class FileStorageBackend implements StorageBackend {
  private final Path root;
  private final KeyPaths paths;
  private final boolean fsync;

  /** Opens (creating if needed) a store under {@code root}, without fsync. */
  public FileStorageBackend(Path root) {
    this(root, /* fsync= */ false);
  }

  /** Opens (creating if needed) a store under {@code root}; {@code fsync} forces each object to disk. */
  public FileStorageBackend(Path root, boolean fsync) {
    this.root = root.toAbsolutePath().normalize();
    this.paths = new KeyPaths(this.root);
    this.fsync = fsync;
    try {
      Files.createDirectories(this.root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create storage root " + this.root, e);
    }
  }

  /** Returns the file that holds (or would hold) {@code key}; always inside the root. */
  public Path pathOf(PageKey key) {
    return paths.pathOf(key);
  }

  @Override
  public boolean exists(PageKey key) {
    return Files.isRegularFile(paths.pathOf(key));
  }

  @Override
  public boolean get(PageKey key, ByteBuffer dst) {
    byte[] object;
    try {
      object = Files.readAllBytes(paths.pathOf(key));
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("reading page " + key, e);
    }
    PageObjectFormat.decode(key, object, dst);
    return true;
  }

  @Override
  public void put(PageKey key, ByteBuffer src) {
    Path target = paths.pathOf(key);
    ByteBuffer object = PageObjectFormat.encode(src);
    Path tmp = null;
    try {
      Files.createDirectories(target.getParent());
      tmp = Files.createTempFile(target.getParent(), ".put-", ".tmp");
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        while (object.hasRemaining()) {
          ch.write(object);
        }
        if (fsync) {
          ch.force(true);
        }
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (IOException e) {
      throw new UncheckedIOException("writing page " + key, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write already failed; a stray temp file is never read as an object
        }
      }
    }
  }

  @Override
  public boolean remove(PageKey key) {
    try {
      return Files.deleteIfExists(paths.pathOf(key)); // one unlink: a reader sees the object whole or none
    } catch (IOException e) {
      throw new UncheckedIOException("removing page " + key, e);
    }
  }

  @Override
  public String describe() {
    return "file " + root + " (crc32c" + (fsync ? ", fsync" : "") + ")";
  }
}
