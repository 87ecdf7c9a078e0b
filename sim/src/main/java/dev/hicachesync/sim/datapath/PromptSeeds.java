package dev.hicachesync.sim.datapath;

import dev.hicachesync.tier.PageContent;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The content seeds ({@link PageContent#seed}) of every whole page of recent token arrays, computed once
 * and shared by the data paths of every rank of a run.
 *
 * <p>Why: a rank seeds a prompt's computed pages when prefill writes them ({@link DataPath#compute}) and
 * again when its controller checks the node that holds them; with four ranks that was eight serial passes
 * over every computed token, a fifth of a replay's profile. The ranks of a replay share their
 * request objects (the workload's), so keyed by the prompt array's identity one pass serves all of them.
 *
 * <p>Correctness does not rest on sharing: a seed is a pure function of a page's tokens, an entry is found
 * only for the very array it was computed from, and a token array handed to the cache is never written
 * afterwards (prompts and sequences are built once). A miss (another array in the slot) computes again.
 * Any thread: entries are immutable and published through an {@link AtomicReferenceArray}.
 */
public final class PromptSeeds {
  /** Arrays remembered; far more than the requests admitted in the few steps the ranks may drift apart. */
  private static final int SLOTS = 256;

  private record Entry(int[] tokens, int pageSize, long[] seeds) {}

  private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);

  /**
   * Returns the seed of every whole page of {@code tokens}, computing and remembering them unless another
   * rank did (shared: callers must not modify the array). For a prompt, whose pages every rank seeds.
   */
  long[] of(int[] tokens, int pageSize) {
    long[] known = peek(tokens, pageSize);
    if (known != null) {
      return known;
    }
    long[] seeds = new long[tokens.length / pageSize];
    for (int p = 0; p < seeds.length; p++) {
      seeds[p] = PageContent.seed(tokens, p * pageSize, pageSize);
    }
    slots.set(slot(tokens), new Entry(tokens, pageSize, seeds));
    return seeds;
  }

  /** Returns the seeds {@link #of} remembers for {@code tokens}, or null (nothing is computed here). */
  long[] peek(int[] tokens, int pageSize) {
    Entry e = slots.get(slot(tokens));
    return e != null && e.tokens == tokens && e.pageSize == pageSize ? e.seeds : null;
  }

  private static int slot(int[] tokens) {
    return System.identityHashCode(tokens) & (SLOTS - 1);
  }
}
