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
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The file storage backend's page writes and reads ({@link FileStorageBackend#put}, {@link
 * FileStorageBackend#get}) against raw {@link FileChannel} I/O of the same bytes: the baseline writes each
 * page to a temporary file and renames it into place (the same atomic publish the backend does, to the same
 * file paths under another root, without its header and checksum) and reads it back whole. The difference is
 * the backend's own work: header, checksum, temporary name, folder bookkeeping. {@link #pathOf} is the part
 * of a read that is only naming the file.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FileStorageBenchmark {
  static final int PAGE_BYTES = 4096;

  /** Distinct pages written and read in turn. */
  @Param({"512"})
  public int pages;

  private Path dir;
  private FileStorageBackend backend;
  private PageKey[] keys;
  private Path[] rawPaths;
  private ByteBuffer bytes;
  private ByteBuffer in;
  private int page;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    dir = Files.createTempDirectory("hicache-bench-storage");
    backend = new FileStorageBackend(dir.resolve("backend"));
    FileStorageBackend rawLayout = new FileStorageBackend(dir.resolve("raw"));
    bytes = ByteBuffer.allocateDirect(PAGE_BYTES);
    for (int i = 0; i < PAGE_BYTES; i++) {
      bytes.put(i, (byte) i);
    }
    keys = new PageKey[pages];
    rawPaths = new Path[pages];
    PageKey prev = null;
    for (int i = 0; i < pages; i++) {
      int[] tokens = {i, i + 1, i + 2};
      prev = prev == null ? PageKey.first(tokens) : PageKey.chain(prev, tokens);
      keys[i] = prev;
      backend.put(prev, bytes.duplicate()); // every object exists before the reads are timed
      rawPaths[i] = rawLayout.pathOf(prev);
      Files.createDirectories(rawPaths[i].getParent());
      rawPut(rawPaths[i], bytes.duplicate());
    }
    in = ByteBuffer.allocateDirect(PAGE_BYTES);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private int next() {
    int i = page++ % pages;
    if (page == pages) {
      page = 0;
    }
    return i;
  }

  @Benchmark
  public int put() {
    int i = next();
    backend.put(keys[i], bytes.duplicate());
    return i;
  }

  @Benchmark
  public int baselineRawPut() throws IOException {
    int i = next();
    rawPut(rawPaths[i], bytes.duplicate());
    return i;
  }

  @Benchmark
  public int get() {
    in.clear();
    return backend.get(keys[next()], in) ? in.position() : -1;
  }

  @Benchmark
  public int baselineRawGet() throws IOException {
    in.clear();
    try (FileChannel ch = FileChannel.open(rawPaths[next()], StandardOpenOption.READ)) {
      while (in.hasRemaining() && ch.read(in) >= 0) {
        // the whole page
      }
    }
    return in.position();
  }

  @Benchmark
  public Path pathOf() {
    return backend.pathOf(keys[next()]);
  }

  private static void rawPut(Path target, ByteBuffer src) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      while (src.hasRemaining()) {
        ch.write(src);
      }
    }
    Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
