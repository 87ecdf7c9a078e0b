package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
