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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

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
  /** Folders known to exist (made by this backend), so that a put does not stat them every time. */
  private final Set<Path> madeDirs = ConcurrentHashMap.newKeySet();
  /** Temporary file names: this backend's random tag and a counter. */
  private final String tag = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
  private final AtomicLong tmpCounter = new AtomicLong();

  /** Larger than any page object this project writes; a bigger file is not read into memory. */
  private static final long MAX_OBJECT_BYTES = 1L << 30;
  private static final ThreadLocal<ByteBuffer> READ_BUFFER =
      ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(64 * 1024));

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
    ByteBuffer object;
    try (FileChannel ch = FileChannel.open(paths.pathOf(key), StandardOpenOption.READ)) {
      long size = ch.size();
      if (size > MAX_OBJECT_BYTES) {
        throw new CorruptPageException("page " + key + ": object of " + size + " bytes is larger than any page");
      }
      object = readBuffer((int) size);
      while (object.hasRemaining() && ch.read(object) >= 0) {
        // read the whole object: one read for a page-sized file
      }
      object.flip();
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("reading page " + key, e);
    }
    PageObjectFormat.decode(key, object, dst);
    return true;
  }

  /** This thread's read buffer, at least {@code size} bytes, cleared and limited to {@code size}. */
  private static ByteBuffer readBuffer(int size) {
    ByteBuffer b = READ_BUFFER.get();
    if (b.capacity() < size) {
      b = ByteBuffer.allocateDirect(Math.max(size, 2 * b.capacity()));
      READ_BUFFER.set(b);
    }
    return b.clear().limit(size);
  }

  @Override
  public void put(PageKey key, ByteBuffer src) {
    Path target = paths.pathOf(key);
    ByteBuffer header = PageObjectFormat.header(src);
    ByteBuffer payload = src.duplicate();
    src.position(src.limit());
    try {
      writeAtomically(target, header, payload);
    } catch (NoSuchFileException e) {
      // The folder went away since we made it (an external cleanup): make it again, once.
      madeDirs.remove(target.getParent());
      header.rewind();
      payload.rewind();
      try {
        writeAtomically(target, header, payload);
      } catch (IOException again) {
        throw new UncheckedIOException("writing page " + key, again);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing page " + key, e);
    }
  }

  /**
   * Writes header and payload to a fresh temporary file beside {@code target} and renames it over
   * {@code target}. Why not {@code Files.createTempFile}: it draws a secure random name and sets
   * permissions per call; a per-backend tag and a counter are as unique (the file is opened CREATE_NEW).
   */
  private void writeAtomically(Path target, ByteBuffer header, ByteBuffer payload) throws IOException {
    Path dir = target.getParent();
    if (!madeDirs.contains(dir)) {
      Files.createDirectories(dir);
      madeDirs.add(dir);
    }
    Path tmp = dir.resolve(".put-" + tag + "-" + tmpCounter.incrementAndGet() + ".tmp");
    ByteBuffer[] parts = {header, payload};
    boolean moved = false;
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW)) {
        while (payload.hasRemaining() || header.hasRemaining()) {
          ch.write(parts);
        }
        if (fsync) {
          ch.force(true);
        }
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
    } finally {
      if (!moved) {
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
