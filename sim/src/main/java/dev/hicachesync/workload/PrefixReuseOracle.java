package dev.hicachesync.workload;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The trace's own prefix-reuse ratio, computed without the radix tree: the figure a cache with every
 * tier unbounded must report exactly.
 *
 * <p>Nomenclature. For request R (in arrival order) and an earlier request S, <i>seq(S)</i> is S's input
 * followed by its output tokens, everything an engine that also inserts decoded tokens has cached for S.
 * <i>shared(R)</i> = max over earlier S of the longest common prefix of input(R) and seq(S), in tokens;
 * <i>hit(R)</i> = shared(R) rounded down to the page size (the cache stores whole pages only). A block of
 * R is <i>hit</i> when hit(R) covers all of its tokens. Ratios are hit tokens / input tokens and hit
 * blocks / input blocks over the whole trace.
 *
 * <p>Why a block trie is exact at token level: tokens of block b depend only on its id
 * ({@link BlockTokens}), distinct ids differ at offset 0, and output tokens never equal input tokens.
 * So input(R) and seq(S) agree on blocks 0..b−1 and then share min(len_R(b), len_S(b)) tokens of block b
 * if the ids at b are equal (S's output never extends a match), none otherwise. A trie over id paths
 * whose nodes keep the longest fill any earlier request gave that block yields the max over all S in one
 * walk. Page rounding of what the cache stored does not matter: floor(min(a, 64·floor(b/64))/64) =
 * floor(min(a, b)/64). Not thread-safe.
 */
public final class PrefixReuseOracle {

  private static final int BLOCK = MooncakeRequest.BLOCK_TOKENS;

  /** One trie edge: the node reached from {@code parent} by block id {@code block}. */
  private record Edge(int parent, long block) {}

  private final int pageSize;
  private final Map<Edge, Integer> children = new HashMap<>();
  // fill[node]: the most tokens of that block any earlier request's input held (1..512).
  private int[] fill = new int[1024];
  private int nodes = 1; // node 0 is the root (empty prefix)

  private long requests;
  private long inputTokens;
  private long hitTokens;
  private long inputBlocks;
  private long hitBlocks;
  private long[] perRequest = new long[1024];

  /** An oracle for a cache of {@code pageSize}-token pages (SGLang's default is 64). */
  public PrefixReuseOracle(int pageSize) {
    if (pageSize < 1) {
      throw new IllegalArgumentException("page size must be >= 1, got " + pageSize);
    }
    this.pageSize = pageSize;
  }

  /** Runs the oracle over a whole trace with pages of {@code pageSize} tokens. */
  public static Result of(Iterator<MooncakeRequest> trace, int pageSize) {
    PrefixReuseOracle oracle = new PrefixReuseOracle(pageSize);
    trace.forEachRemaining(oracle::offer);
    return oracle.result();
  }

  /** Matches {@code r} against every earlier request, then records it; returns hit(r) in tokens. */
  public long offer(MooncakeRequest r) {
    long shared = 0;
    int node = 0;
    for (int b = 0; b < r.blocks(); b++) {
      Integer child = children.get(new Edge(node, r.hashIds()[b]));
      if (child == null) {
        break;
      }
      int len = r.blockLength(b);
      shared = (long) b * BLOCK + Math.min(len, fill[child]);
      if (fill[child] < BLOCK || len < BLOCK) {
        break; // one of the two sequences leaves the input tokens inside this block
      }
      node = child;
    }
    long hit = shared / pageSize * pageSize;
    record(r, hit);
    insert(r);
    return hit;
  }

  private void record(MooncakeRequest r, long hit) {
    if (requests == perRequest.length) {
      perRequest = Arrays.copyOf(perRequest, perRequest.length * 2);
    }
    perRequest[(int) requests++] = hit;
    inputTokens += r.inputLength();
    hitTokens += hit;
    inputBlocks += r.blocks();
    for (int b = 0; b < r.blocks() && hit >= (long) b * BLOCK + r.blockLength(b); b++) {
      hitBlocks++;
    }
  }

  private void insert(MooncakeRequest r) {
    int node = 0;
    for (int b = 0; b < r.blocks(); b++) {
      Edge e = new Edge(node, r.hashIds()[b]);
      Integer child = children.get(e);
      if (child == null) {
        child = nodes++;
        if (child == fill.length) {
          fill = Arrays.copyOf(fill, fill.length * 2);
        }
        children.put(e, child);
      }
      fill[child] = Math.max(fill[child], r.blockLength(b));
      node = child;
    }
  }

  /** The totals so far. */
  public Result result() {
    return new Result(pageSize, requests, inputTokens, hitTokens, inputBlocks, hitBlocks,
        Arrays.copyOf(perRequest, (int) requests));
  }

  /** Totals of an oracle run; {@code hitTokensPerRequest[i]} is hit() of the i-th request. */
  public record Result(int pageSize, long requests, long inputTokens, long hitTokens, long inputBlocks,
      long hitBlocks, long[] hitTokensPerRequest) {

    /** Hit tokens / input tokens (0 for an empty trace). */
    public double tokenRatio() {
      return inputTokens == 0 ? 0 : (double) hitTokens / inputTokens;
    }

    /** Hit blocks / input blocks (0 for an empty trace). */
    public double blockRatio() {
      return inputBlocks == 0 ? 0 : (double) hitBlocks / inputBlocks;
    }

    @Override
    public String toString() {
      return String.format("prefix reuse (page %d): %d requests, tokens %d/%d = %.4f, blocks %d/%d = %.4f",
          pageSize, requests, hitTokens, inputTokens, tokenRatio(), hitBlocks, inputBlocks, blockRatio());
    }
  }
}
