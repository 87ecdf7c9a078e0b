package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class PageKeyTest {

  @Test
  void firstPageOfNoTokensIsTheSha256OfNothing() {
    assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        PageKey.first(new int[0]).hash());
  }

  @Test
  void chainDependsOnEveryPreviousPage() {
    PageKey a = PageKey.first(new int[] {1, 2, 3, 4});
    PageKey b = PageKey.chain(a, new int[] {5, 6, 7, 8});
    assertEquals(b, PageKey.chain(PageKey.first(new int[] {1, 2, 3, 4}), new int[] {5, 6, 7, 8}));
    assertEquals(a, PageKey.chain(null, new int[] {1, 2, 3, 4}));
    assertNotEquals(b, PageKey.chain(PageKey.first(new int[] {1, 2, 3, 9}), new int[] {5, 6, 7, 8}));
    assertNotEquals(b, PageKey.first(new int[] {5, 6, 7, 8}), "same tokens, different prefix");
    assertEquals(64, b.hash().length());
  }

  @Test
  void suffixSeparatesKeySpacesButNotTheChain() {
    PageKey a = PageKey.first(new int[] {1});
    PageKey a0 = a.withSuffix("pp0");
    assertNotEquals(a, a0);
    assertEquals(a.hash(), a0.hash());
    assertEquals(PageKey.chain(a, new int[] {2}), PageKey.chain(a0, new int[] {2}));
    assertEquals(a.hash() + "@pp0", a0.toString());
    assertEquals(a, PageKey.ofHash(a.hash()));
    assertThrows(IllegalArgumentException.class, () -> PageKey.ofHash("../../etc/passwd"));
    assertThrows(IllegalArgumentException.class, () -> a.withSuffix("x".repeat(65)));
  }

  /**
   * The chain is SGLang's: SHA-256 over the previous hash's hex digits then each token as a big-endian
   * int32. Checked against that definition written out plainly, for random page chains and ranges (the
   * fast path reuses per-thread buffers, so pages of different lengths follow each other here).
   */
  @Test
  void chainIsSha256OfPreviousHexAndBigEndianTokens() {
    qt().withFixedSeed(13L).withExamples(200)
        .forAll(lists().of(integers().all()).ofSizeBetween(0, 300), integers().between(1, 64))
        .checkAssert((tokens, pageSize) -> {
          int[] all = tokens.stream().mapToInt(Integer::intValue).toArray();
          PageKey fast = null;
          String plain = null;
          for (int from = 0; from < all.length; from += pageSize) {
            int len = Math.min(pageSize, all.length - from);
            fast = PageKey.chain(fast, all, from, len);
            plain = plainChain(plain, all, from, len);
            assertEquals(plain, fast.hash(), "page at " + from + " of " + all.length + ", page size " + pageSize);
          }
        });
  }

  /**
   * A key chained moments ago by another caller (another rank) is reused only for the same previous key and
   * the same tokens ({@link SharedPageKeys}): pages that differ in a token the slot does not look at, a
   * caller's array changed after it was hashed, and previous keys that share their first hash word (the
   * slot's) all get their own keys, equal to the plain definition.
   */
  @Test
  void sharedKeysAreTakenOnlyForTheSamePreviousKeyAndTokens() {
    int[] page = {11, 12, 13, 14, 15, 16, 17, 18};
    PageKey a = PageKey.chain(null, page, 0, 8);
    assertEquals(plainChain(null, page, 0, 8), a.hash());
    int[] other = page.clone();
    page[2] = -5; // the caller reuses its array (first, middle and last token unchanged: the same slot)
    assertEquals(plainChain(null, page, 0, 8), PageKey.chain(null, page, 0, 8).hash());
    other[1] = 99;
    assertEquals(plainChain(null, other, 0, 8), PageKey.chain(null, other, 0, 8).hash());
    PageKey p1 = PageKey.ofHash("0123456789abcdef" + "a".repeat(48));
    PageKey p2 = PageKey.ofHash("0123456789abcdef" + "b".repeat(48));
    assertEquals(plainChain(p1.hash(), other, 0, 8), PageKey.chain(p1, other, 0, 8).hash());
    assertEquals(plainChain(p2.hash(), other, 0, 8), PageKey.chain(p2, other, 0, 8).hash());
    assertEquals(PageKey.chain(p1, other, 0, 8), PageKey.computeChain(p1, other, 0, 8), "taken when all is equal");
  }

  /** The hash words the memory store keys by are the hex digits' values, however the key was made. */
  @Test
  void hashWordsAreTheHexDigitsValues() {
    PageKey k = PageKey.chain(PageKey.first(new int[] {3, 1, 4}), new int[] {1, 5, 9, 2, 6});
    PageKey parsed = PageKey.ofHash(k.hash());
    assertEquals(java.util.Arrays.toString(parsed.hashWords()), java.util.Arrays.toString(k.hashWords()));
    assertEquals(Long.parseUnsignedLong(k.hash().substring(48), 16), k.hashWords()[3]);
    assertEquals(Long.parseUnsignedLong(k.hash().substring(0, 16), 16), k.withSuffix("tp1").hashWords()[0]);
  }

  private static String plainChain(String prev, int[] tokens, int from, int len) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      if (prev != null) {
        sha.update(prev.getBytes(StandardCharsets.US_ASCII));
      }
      ByteBuffer b = ByteBuffer.allocate(4 * len);
      for (int i = from; i < from + len; i++) {
        b.putInt(tokens[i]);
      }
      sha.update(b.array());
      return HexFormat.of().formatHex(sha.digest());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A key keeps its hash as bytes and builds the string only when asked: equality, the hash code
   * (which tree digests mix) and the text are those of the hash string, whichever is asked first.
   */
  @Test
  void equalityHashCodeAndTextAreThoseOfTheHashString() {
    PageKey chained = PageKey.chain(PageKey.first(new int[] {1, 2}), new int[] {3, 4});
    int codeFirst = chained.withSuffix("tp1").hashCode(); // before any string exists
    String hex = chained.hash();
    PageKey parsed = PageKey.ofHash(hex);
    assertEquals(parsed, chained);
    assertEquals(hex.hashCode() * 31, chained.hashCode());
    assertEquals(parsed.hashCode(), chained.hashCode());
    assertEquals(hex.hashCode() * 31 + "tp1".hashCode(), codeFirst);
    assertEquals(codeFirst, parsed.withSuffix("tp1").hashCode());
    assertEquals(parsed.withSuffix("tp1"), chained.withSuffix("tp1"));
    assertNotEquals(chained.withSuffix("tp0"), chained.withSuffix("tp1"));
    assertNotEquals(PageKey.first(new int[] {1, 2}), chained);
    assertEquals(hex + "@tp1", chained.withSuffix("tp1").toString());
    assertEquals(PageKey.chain(parsed, new int[] {5}), PageKey.chain(chained, new int[] {5}), "the chain goes on alike");
  }
}
