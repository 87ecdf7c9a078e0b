package dev.hicachesync.bench;

import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.tier.HostPool;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Host-pool page copies ({@link HostPool#readPage}, {@link HostPool#writePage}, the calls the data path
 * makes) against bulk copies of the same bytes between the same kinds of buffer, in the same direction.
 *
 * <p>Baseline on Java 17: {@code MemorySegment.copy} is an incubator API there ({@code jdk.incubator.foreign},
 * needs {@code --add-modules}), so the baseline is its stable equivalent, the absolute bulk {@code
 * ByteBuffer.put} from a direct buffer into a direct buffer (the same intrinsic copy underneath).
 *
 * <p>Why a {@code layer_first} page has its own baseline (issue 13): its 4 KiB lie in eight 512-byte ranges
 * a whole layer of every page apart, so a copy of the same bytes is eight bulk copies from those places,
 * whatever does it ({@code MemorySegment.copy} too). One bulk copy of 4 KiB of contiguous bytes elsewhere is not
 * the same work: its addresses stream, the eight ranges do not. That comparison is still printed, on rows of
 * its own without a target, so what the layout itself costs stays visible.
 *
 * <p>Each baseline copies into and out of its pool's own memory ({@link HostPool#poolView}), at the
 * offsets the pool's copy uses: the same bytes at the same addresses, copied the same number of times.
 *
 * <p>Like the storage rows, each figure is the median of interleaved trials (every copy takes its turn in
 * each trial), so that a burst of outside load hits ours and the baseline alike.
 */
final class CopyBench {
  static final int LAYERS = 8;
  static final int LAYER_BYTES = 512;
  static final int PAGES = 1024;
  static final int PAGE_BYTES = LAYERS * LAYER_BYTES;

  private CopyBench() {}

  /** The copies measured, in the order each trial runs them. */
  private enum Copy { BULK_READ, BULK_WRITE, RANGES_READ, RANGES_WRITE, PF_READ, PF_WRITE, LF_READ, LF_WRITE }

  static List<BenchRow> run(Clock clock, int trials) throws Exception {
    ByteBuffer scratch = ByteBuffer.allocateDirect(PAGE_BYTES);
    HostPool pageFirst = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.PAGE_FIRST);
    HostPool layerFirst = new HostPool(PAGES, LAYERS, LAYER_BYTES, HostLayout.LAYER_FIRST);
    // Each baseline copies into and out of the very memory of the pool it stands beside: the same eight
    // copies into two different 4 MiB buffers measured up to 10 % apart (where the pages of each lie in
    // the caches), which made a row's ratio depend on the run rather than on the code.
    ByteBuffer raw = pageFirst.poolView();
    ByteBuffer rawLayerFirst = layerFirst.poolView();
    int[] next = {0};
    Clock.Op[] ops = new Clock.Op[Copy.values().length];
    ops[Copy.BULK_READ.ordinal()] = () -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      scratch.put(0, raw, p * PAGE_BYTES, PAGE_BYTES);
      return scratch.get(p & (PAGE_BYTES - 1));
    };
    ops[Copy.BULK_WRITE.ordinal()] = () -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      raw.put(p * PAGE_BYTES, scratch, 0, PAGE_BYTES);
      return raw.get(p * PAGE_BYTES);
    };
    // Where a layer_first pool keeps page p's layer l: (l * PAGES + p) * LAYER_BYTES.
    ops[Copy.RANGES_READ.ordinal()] = () -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      for (int l = 0; l < LAYERS; l++) {
        scratch.put(l * LAYER_BYTES, rawLayerFirst, (l * PAGES + p) * LAYER_BYTES, LAYER_BYTES);
      }
      return scratch.get(p & (PAGE_BYTES - 1));
    };
    ops[Copy.RANGES_WRITE.ordinal()] = () -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      for (int l = 0; l < LAYERS; l++) {
        rawLayerFirst.put((l * PAGES + p) * LAYER_BYTES, scratch, l * LAYER_BYTES, LAYER_BYTES);
      }
      return rawLayerFirst.get(p * LAYER_BYTES);
    };
    ops[Copy.PF_READ.ordinal()] = read(pageFirst, scratch, next);
    ops[Copy.PF_WRITE.ordinal()] = write(pageFirst, scratch, next);
    ops[Copy.LF_READ.ordinal()] = read(layerFirst, scratch, next);
    ops[Copy.LF_WRITE.ordinal()] = write(layerFirst, scratch, next);

    for (Clock.Op op : ops) {
      clock.nanosPerOp(op); // warm every path before any trial counts
    }
    Clock trial = new Clock(0, Math.max(1, clock.measureNanos() / trials));
    double[][] t = new double[ops.length][trials];
    for (int i = 0; i < trials; i++) {
      for (int k = 0; k < ops.length; k++) {
        t[k][i] = trial.nanosPerOp(ops[k]);
      }
    }
    double[] cost = new double[ops.length];
    for (int k = 0; k < ops.length; k++) {
      cost[k] = CollectiveBench.median(t[k]);
    }
    String bulk = "ByteBuffer bulk put (page)";
    String ranges = "ByteBuffer bulk put (page), 8 ranges";
    List<BenchRow> rows = new ArrayList<>();
    rows.add(row("host pool layer_first readPage", cost, Copy.LF_READ, ranges, Copy.RANGES_READ, "≥ 80 %"));
    rows.add(row("host pool layer_first writePage", cost, Copy.LF_WRITE, ranges, Copy.RANGES_WRITE, "≥ 80 %"));
    rows.add(row("host pool page_first readPage", cost, Copy.PF_READ, bulk, Copy.BULK_READ, "≥ 80 %"));
    rows.add(row("host pool page_first writePage", cost, Copy.PF_WRITE, bulk, Copy.BULK_WRITE, "≥ 80 %"));
    // What the layout costs: the same layer_first copies against one contiguous copy (no target).
    rows.add(row("host pool layer_first readPage (contiguous baseline)", cost, Copy.LF_READ, bulk, Copy.BULK_READ,
        ""));
    rows.add(row("host pool layer_first writePage (contiguous baseline)", cost, Copy.LF_WRITE, bulk,
        Copy.BULK_WRITE, ""));
    return rows;
  }

  private static BenchRow row(String area, double[] cost, Copy ours, String baseline, Copy base, String target) {
    return new BenchRow(area, cost[ours.ordinal()], baseline, cost[base.ordinal()], "4 KiB page", target);
  }

  private static Clock.Op read(HostPool pool, ByteBuffer scratch, int[] next) {
    return () -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      pool.readPage(p, scratch);
      return scratch.get(p & (PAGE_BYTES - 1));
    };
  }

  private static Clock.Op write(HostPool pool, ByteBuffer scratch, int[] next) {
    return () -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      pool.writePage(p, scratch);
      return p;
    };
  }
}
