package dev.hicachesync.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link StorageBackend} on a local folder: one file per page key, written atomically, checksummed,
 * naming its own key ({@link PageObjectFormat}).
 *
 * <p>Design: {@code put} writes header + key + payload to a temporary file {@code .put-*.tmp} in the
 * object's own folder and renames it over the target with {@code ATOMIC_MOVE}, so a reader sees the old
 * object or the new one, never a torn one. With durability on, the temporary file is forced to disk
 * before the rename and the folder after it: without the first a crash can leave a renamed object whose
 * data never reached the disk; without the second the rename itself can be lost. A writer killed between
 * create and rename leaves a temporary file that no reader ever opens; {@link #FileStorageBackend(Path,
 * boolean) opening} the store removes them. Opening an empty folder writes the store marker ({@code
 * .hicache-sync-store}): only a marked folder can be emptied by {@link #clear}. A corrupted object (bad header, length, CRC32C, or another
 * key's object) makes {@link #get} throw {@link CorruptPageException}; {@link #exists} and {@link
 * #leadingHits} only look for the file, like a storage hit query that does not read data. I/O errors
 * surface as {@link UncheckedIOException}.
 *
 * <p>Containment: keys are mapped to names that cannot leave the root ({@link KeyPaths}), the root is
 * used by its real path, and a page folder that is a symlink, or resolves outside the root, is refused
 * with {@link StorageRootException} before anything is written through it. Thread-safe.
 */
public final class FileStorageBackend implements StorageBackend {
  /** Prefix of a write's temporary file; anything so named at open is a crashed writer's leftover. */
  static final String TEMP_PREFIX = ".put-";
  static final String TEMP_SUFFIX = ".tmp";
  /** How {@link #get} opens an object: read-only, and a symlink in its place is not followed. */
  private static final Set<OpenOption> READ_OWN_FILE =
      Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);

  private final Path root;
  private final KeyPaths paths;
  private final boolean fsync;
  /** Where a durable put sends its two forces ({@link FileSync#SYSTEM} but in tests). */
  private final FileSync sync;
  /** Temporary objects and folders forced so far (durable puts only; reported by the simulator). */
  private final AtomicLong filesForced = new AtomicLong();
  private final AtomicLong foldersForced = new AtomicLong();
  /** Page folders already checked to lie inside the root (at most 256: the first two hex digits). */
  private final Set<Path> checkedFolders = ConcurrentHashMap.newKeySet();
  private final long pagesAtOpen;
  private final int tempFilesRemoved;

  /** Opens (creating if needed) a store under {@code root}, without fsync. */
  public FileStorageBackend(Path root) {
    this(root, /* fsync= */ false);
  }

  /**
   * Opens (creating if needed) a store under {@code root}; {@code fsync} forces each object and then its
   * folder to disk. Removes temporary files an earlier, crashed writer left behind and counts the pages
   * found.
   *
   * @throws StorageRootException if the folder cannot be created or written, or a page folder leads
   *     outside it
   */
  public FileStorageBackend(Path root, boolean fsync) {
    this(root, fsync, FileSync.SYSTEM);
  }

  /** As {@link #FileStorageBackend(Path, boolean)}, forcing through {@code sync} (a test's recorder). */
  FileStorageBackend(Path root, boolean fsync, FileSync sync) {
    this.root = checkRoot(root);
    this.paths = new KeyPaths(this.root);
    this.fsync = fsync;
    this.sync = Objects.requireNonNull(sync, "sync");
    long pages = 0;
    int removed = 0;
    boolean empty = true;
    try (DirectoryStream<Path> folders = Files.newDirectoryStream(this.root)) {
      for (Path folder : folders) {
        empty &= folder.getFileName().toString().equals(OwnFiles.MARKER);
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
          if (Files.isSymbolicLink(folder)) {
            checkFolder(folder);
          }
          continue;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
          for (Path f : files) {
            String name = f.getFileName().toString();
            if (OwnFiles.isTempName(name) && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
              Files.deleteIfExists(f); // a crashed writer's: named as only a put names its file
              removed++;
            } else if (name.endsWith(KeyPaths.PAGE_EXT)) {
              pages++;
            }
          }
        }
        checkedFolders.add(folder);
      }
      if (empty) {
        OwnFiles.mark(this.root); // this tool creates the store: --fresh-storage may later empty it
      }
    } catch (IOException e) {
      throw new StorageRootException("storage folder " + this.root + ": cannot list it: " + reason(e));
    }
    this.pagesAtOpen = pages;
    this.tempFilesRemoved = removed;
  }

  /**
   * Creates {@code dir} if needed and proves it writable by creating and deleting a temporary file in
   * it; returns its real path (symlinks resolved). Callers check a folder this way before a run starts.
   *
   * @throws StorageRootException naming the folder and the reason
   */
  public static Path checkRoot(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    try {
      Files.createDirectories(abs);
      Path real = abs.toRealPath();
      Path probe = Files.createTempFile(real, TEMP_PREFIX + "probe-", TEMP_SUFFIX);
      Files.delete(probe);
      return real;
    } catch (IOException e) {
      throw new StorageRootException("storage folder " + abs + " is not usable: " + reason(e));
    }
  }

  /** What {@link #clear} removed and kept. */
  public record Cleared(long pageObjects, long tempFiles, long kept, List<Path> stores) {
    /** One line for the user: what was removed from where, and what was left alone. */
    public String describe(Path dir) {
      return String.format(java.util.Locale.ROOT, "fresh storage: removed %d page object(s) and %d temporary file(s)"
          + " from %s%s", pageObjects, tempFiles, dir, kept == 0 ? ""
              : "; kept " + kept + " other file(s) in its page folders (not page objects of this store)");
    }
  }

  /**
   * Empties the store under {@code dir} ({@code --fresh-storage}): the page objects this tool wrote and its
   * temporary files, in {@code dir} if it carries the store marker and in each {@code dir/rank-N} that does
   * (the bounded layout: one store per rank). Nothing else is touched: a file in a page folder that is not a
   * page object of that store (by its header, see {@link OwnFiles#isPageObject}) stays, as do other folders.
   *
   * @throws StorageRootException if {@code dir} holds anything but no store marker (it is not a store this tool
   *     created: nothing is deleted), or a file cannot be removed
   */
  public static Cleared clear(Path dir) {
    Path abs = dir.toAbsolutePath().normalize();
    if (!Files.exists(abs, LinkOption.NOFOLLOW_LINKS)) {
      return new Cleared(0, 0, 0, List.of());
    }
    List<Path> stores = new java.util.ArrayList<>();
    boolean empty;
    try {
      Path real = abs.toRealPath();
      if (OwnFiles.isMarked(real)) {
        stores.add(real);
      }
      try (java.util.stream.Stream<Path> children = Files.list(real)) {
        List<Path> all = children.toList();
        empty = all.isEmpty();
        for (Path c : all) {
          if (c.getFileName().toString().matches("rank-[0-9]+") && Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS)
              && OwnFiles.isMarked(c)) {
            stores.add(c);
          }
        }
      }
    } catch (IOException | UncheckedIOException e) {
      throw new StorageRootException("storage folder " + abs + ": cannot list it: " + e.getMessage());
    }
    if (stores.isEmpty()) {
      if (empty) {
        return new Cleared(0, 0, 0, List.of());
      }
      throw new StorageRootException("storage folder " + abs + " holds files but no store marker (" + OwnFiles.MARKER
          + "): it is not a store this tool created, so --fresh-storage deletes nothing in it; name an empty or"
          + " new folder");
    }
    long pages = 0;
    long temps = 0;
    long kept = 0;
    for (Path store : stores) {
      KeyPaths paths = new KeyPaths(store);
      try (DirectoryStream<Path> folders = Files.newDirectoryStream(store)) {
        for (Path folder : folders) {
          String fname = folder.getFileName().toString();
          if (OwnFiles.isTempName(fname) && Files.isRegularFile(folder, LinkOption.NOFOLLOW_LINKS)) {
            Files.delete(folder); // the writable-folder probe of a run that died before deleting it
            temps++;
            continue;
          }
          if (!OwnFiles.isPageFolderName(fname) || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            continue;
          }
          try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
            for (Path f : files) {
              if (OwnFiles.isTempName(f.getFileName().toString()) && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                Files.delete(f);
                temps++;
              } else if (OwnFiles.isPageObject(paths, f)) {
                Files.delete(f);
                pages++;
              } else {
                kept++;
              }
            }
          }
        }
      } catch (IOException e) {
        throw new StorageRootException("storage folder " + store + ": cannot empty it: " + reason(e));
      }
    }
    return new Cleared(pages, temps, kept, List.copyOf(stores));
  }

  /** Returns the reason of an I/O failure in a few words, without the path the message repeats. */
  static String reason(IOException e) {
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    if (e instanceof java.nio.file.FileAlreadyExistsException) {
      return "a file, not a folder, is in the way";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or folder";
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }

  /** Returns the file that holds (or would hold) {@code key}; always inside the root. */
  public Path pathOf(PageKey key) {
    return paths.pathOf(key);
  }

  /** Returns the store's folder, by its real path. */
  public Path root() {
    return root;
  }

  /** Returns how many page objects the store held when it was opened (0: an empty store). */
  public long pagesAtOpen() {
    return pagesAtOpen;
  }

  /** Returns whether puts force file and folder to disk. */
  public boolean durable() {
    return fsync;
  }

  /** Returns how many written objects a durable put forced to disk (0 without durability). */
  public long filesForced() {
    return filesForced.get();
  }

  /** Returns how many folders a durable put forced to disk after its rename (0 without durability). */
  public long foldersForced() {
    return foldersForced.get();
  }

  /** Returns how many temporary files of crashed writers opening the store removed. */
  public int tempFilesRemoved() {
    return tempFilesRemoved;
  }

  @Override
  public boolean exists(PageKey key) {
    return Files.isRegularFile(paths.pathOf(key), LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public boolean get(PageKey key, ByteBuffer dst) {
    Path p = paths.pathOf(key);
    ByteBuffer object;
    // Opened without following a final symlink: one open instead of a symlink check and then an open, and
    // no window between the two. A symlink fails the open (ELOOP) and is named below.
    try (FileChannel ch = FileChannel.open(p, READ_OWN_FILE)) {
      // Bounded by the header's size (a page object grown to gigabytes is a corrupt page, not a heap to fill)
      // and by the room dst has: a payload larger than that would be corrupt anyway.
      long max = PageObjectFormat.maxObject(dst.remaining());
      object = WholeObjectReader.readWhole(ch, max);
      long declared = PageObjectFormat.declaredSizeOf(object);
      if (declared > max) {
        throw new CorruptPageException("page " + key + ": header declares an object of " + declared
            + " bytes, more than a page of " + dst.remaining() + " bytes can be (at most " + max + "); not read");
      }
      if (declared >= 0 && object.remaining() > declared) {
        throw new CorruptPageException("page " + key + ": object of " + ch.size() + " bytes is longer than the "
            + declared + " its header declares; read no further");
      }
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      if (Files.isSymbolicLink(p)) { // the open's ELOOP: asked only on the failure path
        throw new CorruptPageException("page " + key + ": " + p + " is a symlink, not a page object");
      }
      throw new UncheckedIOException("reading page " + key, e);
    }
    PageObjectFormat.decode(key, object, dst);
    return true;
  }

  @Override
  public void put(PageKey key, ByteBuffer src) {
    Path target = paths.pathOf(key);
    Path folder = target.getParent();
    // Header + key, then the payload as it is: one gathering write, the payload never copied.
    ByteBuffer header = PageObjectFormat.header(key, src);
    ByteBuffer payload = src.duplicate();
    src.position(src.limit());
    ByteBuffer[] parts = {header, payload};
    Path tmp = null;
    try {
      if (!checkedFolders.contains(folder)) {
        Files.createDirectories(folder);
        checkFolder(folder);
        checkedFolders.add(folder);
      }
      tmp = Files.createTempFile(folder, TEMP_PREFIX, TEMP_SUFFIX);
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        while (header.hasRemaining() || payload.hasRemaining()) {
          ch.write(parts);
        }
        if (fsync) {
          sync.forceFile(ch); // before the rename: the new name must never point at unwritten data
          filesForced.incrementAndGet();
        }
      }
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
      if (fsync) {
        sync.forceFolder(folder); // after the rename: makes the rename itself survive a crash
        foldersForced.incrementAndGet();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing page " + key, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // the write already failed; a stray temp file is never read as an object, and open removes it
        }
      }
    }
  }

  /** Refuses a page folder that is a symlink or whose real path is not directly under the root. */
  private void checkFolder(Path folder) throws IOException {
    if (Files.isSymbolicLink(folder)) {
      throw new StorageRootException("storage folder " + root + ": page folder " + folder.getFileName()
          + " is a symlink to " + Files.readSymbolicLink(folder) + "; refusing to write outside the root");
    }
    Path real = folder.toRealPath();
    if (!real.getParent().equals(root)) {
      throw new StorageRootException("storage folder " + root + ": page folder " + folder + " resolves to "
          + real + ", outside the root");
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
    return "file " + root + " (crc32c, key" + (fsync ? ", fsync" : "") + ")";
  }
}
