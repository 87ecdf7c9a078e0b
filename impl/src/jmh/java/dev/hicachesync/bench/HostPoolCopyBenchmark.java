package dev.hicachesync.bench;

import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.tier.HostPool;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Host-pool page copies against one bulk {@code ByteBuffer} copy of the same 4 KiB (Java 17: the stable
 * stand-in for {@code MemorySegment.copy}, which is an incubator API there). Target: ≥ 80 % of the baseline.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HostPoolCopyBenchmark {
  static final int LAYERS = 8;
  static final int LAYER_BYTES = 512;
  static final int PAGES = 1024;

  @Param({"page_first", "layer_first"})
  public String layout;

  private HostPool pool;
  private ByteBuffer raw;
  private ByteBuffer scratch;
  private int page;

  @Setup
  public void setup() {
    pool = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.parse(layout));
    raw = ByteBuffer.allocateDirect(PAGES * LAYERS * LAYER_BYTES);
    scratch = ByteBuffer.allocateDirect(LAYERS * LAYER_BYTES);
  }

  @Benchmark
  public ByteBuffer readPage() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    pool.readPage(p, scratch);
    return scratch;
  }

  @Benchmark
  public ByteBuffer writePage() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    pool.writePage(p, scratch);
    return scratch;
  }

  /** The write direction of {@link #baselineBulkCopy}: one bulk copy of a page from the scratch buffer. */
  @Benchmark
  public ByteBuffer baselineBulkCopyIn() {
    int p = page++ & (PAGES - 1);
    int bytes = LAYERS * LAYER_BYTES;
    scratch.clear();
    raw.put(p * bytes, scratch, 0, bytes);
    return raw;
  }

  /**
   * The same bytes a {@code layer_first} page holds, where that layout keeps them (one range per layer, a
   * whole layer of every page apart), copied with one bulk copy per range: the least any copy of such a
   * page does, as {@code MemorySegment.copy} would have to (one call per contiguous range).
   */
  @Benchmark
  public ByteBuffer baselineLayerRanges() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    for (int l = 0; l < LAYERS; l++) {
      scratch.put(l * LAYER_BYTES, raw, (l * PAGES + p) * LAYER_BYTES, LAYER_BYTES);
    }
    return scratch;
  }

  /** The write direction of {@link #baselineLayerRanges}. */
  @Benchmark
  public ByteBuffer baselineLayerRangesIn() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    for (int l = 0; l < LAYERS; l++) {
      raw.put((l * PAGES + p) * LAYER_BYTES, scratch, l * LAYER_BYTES, LAYER_BYTES);
    }
    return raw;
  }

  @Benchmark
  public ByteBuffer baselineBulkCopy() {
    int p = page++ & (PAGES - 1);
    int bytes = LAYERS * LAYER_BYTES;
    scratch.clear();
    scratch.put(0, raw, p * bytes, bytes);
    return scratch;
  }
}
