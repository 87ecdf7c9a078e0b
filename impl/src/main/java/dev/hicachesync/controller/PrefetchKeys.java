package dev.hicachesync.controller;

import dev.hicachesync.storage.PageKey;
import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The L3 keys of a prefetch's pages, with the rank's suffix, chained only as far as they are asked for.
 *
 * <p>Why lazily: an operation covers every page of the request past the tree's match (hundreds for a long
 * prompt), and its keys were all chained at issue, on every rank. But S7 asks the store for the leading pages
 * it holds, which stops at the first page it does not hold, and the reads use only the synced hit: the keys
 * past the first miss were never looked at, and in the Mooncake replays that was most of them (chaining them
 * was an eighth of the 4-rank replay's profile). A key is a pure function of the tokens and of the key before
 * it ({@link PageKey#chain}), so when it is chained changes no key and no decision.
 *
 * <p>Any thread (S7 runs on the prefetch thread, the reads on the I/O thread): under this object's monitor.
 */
final class PrefetchKeys extends AbstractList<PageKey> implements RandomAccess {
  private final PageKey[] keys;
  private final int[] tokens;
  private final int pageSize;
  private final String suffix;
  /** Keys chained so far: {@code keys[0, chained)}. Guarded by this. */
  private int chained;
  /** The unsuffixed key of page {@code chained - 1} (before the first: the anchor's last page's, or null). */
  private PageKey last;

  /**
   * The keys of the {@code pages} pages of {@code tokens} (from its start) that follow the page keyed {@code
   * anchorLast} (null: the first page of a sequence), in the key space {@code suffix}.
   */
  PrefetchKeys(PageKey anchorLast, int[] tokens, int pages, int pageSize, String suffix) {
    if ((long) pages * pageSize > tokens.length) {
      throw new IllegalArgumentException(pages + " pages of " + pageSize + " tokens need more than " + tokens.length);
    }
    this.keys = new PageKey[pages];
    this.tokens = tokens;
    this.pageSize = pageSize;
    this.suffix = Objects.requireNonNull(suffix, "suffix");
    this.last = anchorLast;
  }

  /** Keys known already (tests): nothing is chained. */
  static PrefetchKeys of(PageKey[] keys) {
    return new PrefetchKeys(keys);
  }

  private PrefetchKeys(PageKey[] keys) {
    this.keys = keys.clone();
    this.tokens = new int[0];
    this.pageSize = 1;
    this.suffix = "";
    this.chained = keys.length;
  }

  @Override
  public synchronized PageKey get(int page) {
    Objects.checkIndex(page, keys.length);
    while (chained <= page) {
      last = PageKey.chain(last, tokens, chained * pageSize, pageSize); // no copy of the page's tokens
      keys[chained++] = last.withSuffix(suffix);
    }
    return keys[page];
  }

  @Override
  public int size() {
    return keys.length;
  }

  /** Returns how many keys have been chained so far (tests: the laziness). */
  synchronized int chained() {
    return chained;
  }
}
