package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.hicachesync.storage.PageKey;
import dev.hicachesync.testing.QtRuns;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link PrefetchKeys} against the keys chained at once (what prefetch issue did before the keys were chained
 * lazily): any order of reads gives every page the key of the eager chain, with the suffix, and no key past
 * the furthest one read is chained.
 */
class PrefetchKeysPropertyTest {

  @Test
  void lazyKeysAreTheEagerChainAndStopAtTheFurthestRead() {
    QtRuns.qt().forAll(longs().all(), integers().between(0, 40)).checkAssert((seed, pages) -> {
      SplittableRandom r = new SplittableRandom(seed);
      int ps = 1 + r.nextInt(8);
      int[] tokens = new int[pages * ps + r.nextInt(3)]; // a partial page after the whole ones
      for (int i = 0; i < tokens.length; i++) {
        tokens[i] = r.nextInt(50); // small alphabet: equal pages after different keys
      }
      PageKey anchor = r.nextBoolean() ? null : PageKey.first(new int[] {r.nextInt(1000)});
      String suffix = r.nextBoolean() ? "" : "tp" + r.nextInt(4);
      PageKey[] eager = new PageKey[pages];
      PageKey last = anchor;
      for (int i = 0; i < pages; i++) {
        int[] page = java.util.Arrays.copyOfRange(tokens, i * ps, (i + 1) * ps);
        last = PageKey.chain(last, page);
        eager[i] = last.withSuffix(suffix);
      }
      PrefetchKeys lazy = new PrefetchKeys(anchor, tokens, pages, ps, suffix);
      assertEquals(pages, lazy.size());
      assertEquals(0, lazy.chained(), "nothing is chained before a read");
      int furthest = -1;
      for (int n = 0; n < 3 * pages; n++) {
        int i = r.nextInt(pages);
        assertEquals(eager[i], lazy.get(i), "page " + i);
        assertEquals(eager[i].suffix(), lazy.get(i).suffix(), "page " + i + "'s suffix");
        furthest = Math.max(furthest, i);
        assertEquals(furthest + 1, lazy.chained(), "chained only as far as read");
      }
      assertEquals(List.of(eager), List.copyOf(lazy), "the whole list");
    });
  }

  @Test
  void pagesPastTheKeyOrTheTokensAreRefused() {
    PrefetchKeys k = new PrefetchKeys(null, new int[8], 2, 4, "");
    assertThrows(IndexOutOfBoundsException.class, () -> k.get(2));
    assertThrows(IndexOutOfBoundsException.class, () -> k.get(-1));
    assertThrows(IllegalArgumentException.class, () -> new PrefetchKeys(null, new int[7], 2, 4, ""));
    assertTrue(PrefetchKeys.of(new PageKey[] {PageKey.first(new int[] {1})}).chained() == 1, "known keys");
  }
}
