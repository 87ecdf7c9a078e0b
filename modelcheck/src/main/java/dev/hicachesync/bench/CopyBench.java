package dev.hicachesync.bench;

import dev.hicachesync.tier.HostLayout;
import dev.hicachesync.tier.HostPool;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Host-pool page copies ({@link HostPool#readPage}, {@link HostPool#writePage}, the calls the data path
 * makes) against one bulk copy of the same bytes between the same kinds of buffer.
 *
 * <p>Baseline on Java 17: {@code MemorySegment.copy} is an incubator API there ({@code jdk.incubator.foreign},
 * needs {@code --add-modules}), so the baseline is its stable equivalent, one {@code ByteBuffer.put} of a
 * whole page from a direct buffer into a direct buffer (the same intrinsic copy underneath).
 */
final class CopyBench {
  static final int LAYERS = 8;
  static final int LAYER_BYTES = 512;
  static final int PAGES = 1024;

  private CopyBench() {}

  static List<BenchRow> run(Clock clock) throws Exception {
    int pageBytes = LAYERS * LAYER_BYTES;
    ByteBuffer scratch = ByteBuffer.allocateDirect(pageBytes);
    ByteBuffer raw = ByteBuffer.allocateDirect(PAGES * pageBytes);
    int[] next = {0};
    double baseline = clock.nanosPerOp(() -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      scratch.put(raw.slice(p * pageBytes, pageBytes));
      return scratch.get(p & (pageBytes - 1));
    });
    double baselineIn = clock.nanosPerOp(() -> {
      int p = next[0]++ & (PAGES - 1);
      scratch.clear();
      raw.slice(p * pageBytes, pageBytes).put(scratch);
      return raw.get(p * pageBytes);
    });
    List<BenchRow> rows = new ArrayList<>();
    for (HostLayout layout : HostLayout.values()) {
      HostPool pool = new HostPool(PAGES, LAYERS, LAYER_BYTES, layout);
      double read = clock.nanosPerOp(() -> {
        int p = next[0]++ & (PAGES - 1);
        scratch.clear();
        pool.readPage(p, scratch);
        return scratch.get(p & (pageBytes - 1));
      });
      double write = clock.nanosPerOp(() -> {
        int p = next[0]++ & (PAGES - 1);
        scratch.clear();
        pool.writePage(p, scratch);
        return p;
      });
      String what = "host pool " + layout.label() + " ";
      rows.add(new BenchRow(what + "readPage", read, "ByteBuffer bulk put (page)", baseline, "4 KiB page", "≥ 80 %"));
      rows.add(new BenchRow(what + "writePage", write, "ByteBuffer bulk put (page)", baselineIn, "4 KiB page",
          "≥ 80 %"));
    }
    return rows;
  }
}
