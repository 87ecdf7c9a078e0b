package dev.hicachesync.bench;

import dev.hicachesync.storage.FileStorageBackend;
import dev.hicachesync.storage.PageKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The file backend's page read ({@link FileStorageBackend#get}) against a raw {@link FileChannel} read of a
 * file of the same size at the same kind of path, and the part of a read that is only naming the file
 * ({@link FileStorageBackend#pathOf}): where a get's time goes beyond the I/O the baseline also does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class FileStorageBenchmark {
  static final int PAGES = 512;
  static final int PAGE_BYTES = 4096;

  private Path dir;
  private FileStorageBackend backend;
  private PageKey[] keys;
  private Path[] rawPaths;
  private ByteBuffer in;
  private int page;

  @Setup
  public void setup() throws IOException {
    dir = Files.createTempDirectory("hicache-jmh-storage");
    backend = new FileStorageBackend(dir.resolve("backend"));
    FileStorageBackend rawLayout = new FileStorageBackend(dir.resolve("raw"));
    ByteBuffer bytes = ByteBuffer.allocateDirect(PAGE_BYTES);
    for (int i = 0; i < PAGE_BYTES; i++) {
      bytes.put(i, (byte) i);
    }
    keys = new PageKey[PAGES];
    rawPaths = new Path[PAGES];
    PageKey prev = null;
    for (int i = 0; i < PAGES; i++) {
      prev = PageKey.chain(prev, new int[] {i, i + 1, i + 2});
      keys[i] = prev;
      backend.put(prev, bytes.duplicate());
      rawPaths[i] = rawLayout.pathOf(prev);
      Files.createDirectories(rawPaths[i].getParent());
      try (FileChannel ch = FileChannel.open(rawPaths[i], StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        ch.write(bytes.duplicate());
      }
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

  @Benchmark
  public int get() {
    in.clear();
    backend.get(keys[page++ & (PAGES - 1)], in);
    return in.position();
  }

  @Benchmark
  public int baselineRawGet() throws IOException {
    in.clear();
    try (FileChannel ch = FileChannel.open(rawPaths[page++ & (PAGES - 1)], StandardOpenOption.READ)) {
      while (in.hasRemaining() && ch.read(in) >= 0) {
        // the whole page
      }
    }
    return in.position();
  }

  @Benchmark
  public Path pathOf() {
    return backend.pathOf(keys[page++ & (PAGES - 1)]);
  }
}
