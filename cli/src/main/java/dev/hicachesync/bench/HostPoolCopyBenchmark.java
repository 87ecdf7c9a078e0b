package dev.hicachesync.bench;

import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.tier.HostPool;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Host-pool page copies ({@link HostPool#readPage}, {@link HostPool#writePage}, the calls the data path
 * makes) against bulk copies of the same bytes between the same kinds of buffer, in the same direction.
 * Target: ≥ 80 % of the baseline's speed.
 *
 * <p>Baseline on Java 17: {@code MemorySegment.copy} is an incubator API there ({@code jdk.incubator.foreign},
 * needs {@code --add-modules}), so the baseline is its stable equivalent, the absolute bulk {@code
 * ByteBuffer.put} from a direct buffer into a direct buffer (the same intrinsic copy underneath).
 *
 * <p>Why a {@code layer_first} page has its own baseline: its 4 KiB lie in eight 512-byte ranges a whole
 * layer of every page apart, so a copy of the same bytes is eight bulk copies from those places, whatever
 * does it ({@code MemorySegment.copy} too). One bulk copy of 4 KiB of contiguous bytes elsewhere is not the
 * same work: its addresses stream, the eight ranges do not. That comparison is still printed, on rows of its
 * own without a target, so what the layout itself costs stays visible.
 *
 * <p>Each baseline copies into and out of its pool's own memory ({@link HostPool#poolView}), at the offsets
 * the pool's copy uses: the same eight copies into two different 4 MiB buffers measured up to 10 % apart
 * (where the pages of each lie in the caches), which made a row's ratio depend on the run rather than on
 * the code.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HostPoolCopyBenchmark {
  static final int LAYERS = 8;
  static final int LAYER_BYTES = 512;
  static final int PAGES = 1024;
  static final int PAGE_BYTES = LAYERS * LAYER_BYTES;

  private HostPool pageFirst;
  private HostPool layerFirst;
  private ByteBuffer raw;
  private ByteBuffer rawLayerFirst;
  private ByteBuffer scratch;
  private int page;

  @Setup
  public void setup() {
    pageFirst = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    layerFirst = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    raw = pageFirst.poolView();
    rawLayerFirst = layerFirst.poolView();
    scratch = ByteBuffer.allocateDirect(PAGE_BYTES);
  }

  @Benchmark
  public ByteBuffer pageFirstRead() {
    scratch.clear();
    pageFirst.readPage(page++ & (PAGES - 1), scratch);
    return scratch;
  }

  @Benchmark
  public ByteBuffer pageFirstWrite() {
    scratch.clear();
    pageFirst.writePage(page++ & (PAGES - 1), scratch);
    return scratch;
  }

  @Benchmark
  public ByteBuffer layerFirstRead() {
    scratch.clear();
    layerFirst.readPage(page++ & (PAGES - 1), scratch);
    return scratch;
  }

  @Benchmark
  public ByteBuffer layerFirstWrite() {
    scratch.clear();
    layerFirst.writePage(page++ & (PAGES - 1), scratch);
    return scratch;
  }

  /** One bulk copy of a page's contiguous 4 KiB out of the page_first pool's memory. */
  @Benchmark
  public ByteBuffer baselineBulkRead() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    scratch.put(0, raw, p * PAGE_BYTES, PAGE_BYTES);
    return scratch;
  }

  /** The write direction of {@link #baselineBulkRead}. */
  @Benchmark
  public ByteBuffer baselineBulkWrite() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    raw.put(p * PAGE_BYTES, scratch, 0, PAGE_BYTES);
    return raw;
  }

  /**
   * The bytes a {@code layer_first} page holds, where that layout keeps them (page p's layer l at
   * {@code (l * PAGES + p) * LAYER_BYTES}), copied with one bulk copy per range.
   */
  @Benchmark
  public ByteBuffer baselineRangesRead() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    for (int l = 0; l < LAYERS; l++) {
      scratch.put(l * LAYER_BYTES, rawLayerFirst, (l * PAGES + p) * LAYER_BYTES, LAYER_BYTES);
    }
    return scratch;
  }

  /** The write direction of {@link #baselineRangesRead}. */
  @Benchmark
  public ByteBuffer baselineRangesWrite() {
    int p = page++ & (PAGES - 1);
    scratch.clear();
    for (int l = 0; l < LAYERS; l++) {
      rawLayerFirst.put((l * PAGES + p) * LAYER_BYTES, scratch, l * LAYER_BYTES, LAYER_BYTES);
    }
    return rawLayerFirst;
  }
}
