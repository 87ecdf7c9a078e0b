package dev.hicachesync.bench;

import dev.hicachesync.storage.FileStorageBackend;
import dev.hicachesync.storage.PageKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The file storage backend's page writes and reads against raw {@link FileChannel} I/O of the same bytes:
 * the baseline writes each page to a temporary file and renames it into place (the same atomic publish the
 * backend does, to the same file paths, without its header and checksum) and reads it back whole.
 */
final class StorageBench {
  static final int PAGE_BYTES = 4096;

  private StorageBench() {}

  /** Put and get rows, each the median of {@code trials} interleaved trials against its baseline. */
  static List<BenchRow> run(Clock clock, Path dir, int pages, int trials) throws Exception {
    Path store = Files.createDirectories(dir.resolve("backend"));
    Path rawDir = Files.createDirectories(dir.resolve("raw"));
    try {
      FileStorageBackend backend = new FileStorageBackend(store);
      PageKey[] keys = new PageKey[pages];
      PageKey prev = null;
      for (int i = 0; i < pages; i++) {
        int[] tokens = {i, i + 1, i + 2};
        prev = prev == null ? PageKey.first(tokens) : PageKey.chain(prev, tokens);
        keys[i] = prev;
      }
      ByteBuffer page = ByteBuffer.allocateDirect(PAGE_BYTES);
      for (int i = 0; i < PAGE_BYTES; i++) {
        page.put(i, (byte) i);
      }
      ByteBuffer in = ByteBuffer.allocateDirect(PAGE_BYTES);
      // The baseline writes the same files the backend does (its key paths under another root), so the
      // difference is the backend's own work: header, checksum, temporary name, folder bookkeeping.
      FileStorageBackend rawLayout = new FileStorageBackend(rawDir);
      Path[] rawPaths = new Path[pages];
      for (int i = 0; i < pages; i++) {
        rawPaths[i] = rawLayout.pathOf(keys[i]);
        Files.createDirectories(rawPaths[i].getParent());
        rawPut(rawPaths[i], page.duplicate()); // every object exists before the reads are timed
        backend.put(keys[i], page.duplicate());
      }
      int[] next = {0};
      double[][] t = new double[4][trials];
      for (int trial = 0; trial < trials; trial++) {
        t[0][trial] = clock.nanosPerOp(() -> {
          int i = next[0]++ % pages;
          rawPut(rawPaths[i], page.duplicate());
          return i;
        });
        t[1][trial] = clock.nanosPerOp(() -> {
          int i = next[0]++ % pages;
          backend.put(keys[i], page.duplicate());
          return i;
        });
        t[2][trial] = clock.nanosPerOp(() -> {
          int i = next[0]++ % pages;
          in.clear();
          return rawGet(rawPaths[i], in);
        });
        t[3][trial] = clock.nanosPerOp(() -> {
          int i = next[0]++ % pages;
          in.clear();
          return backend.get(keys[i], in) ? in.position() : -1;
        });
      }
      double rawWrite = CollectiveBench.median(t[0]);
      double write = CollectiveBench.median(t[1]);
      double rawRead = CollectiveBench.median(t[2]);
      double read = CollectiveBench.median(t[3]);
      List<BenchRow> rows = new ArrayList<>();
      rows.add(new BenchRow("file storage put", write, "FileChannel write + rename", rawWrite, "4 KiB page", "≥ 70 %"));
      rows.add(new BenchRow("file storage get", read, "FileChannel read", rawRead, "4 KiB page", "≥ 70 %"));
      return rows;
    } finally {
      deleteTree(dir);
    }
  }

  private static void rawPut(Path target, ByteBuffer src) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      while (src.hasRemaining()) {
        ch.write(src);
      }
    }
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  private static long rawGet(Path file, ByteBuffer dst) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (dst.hasRemaining() && ch.read(dst) >= 0) {
        // read to the end of the page
      }
    }
    return dst.position();
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
