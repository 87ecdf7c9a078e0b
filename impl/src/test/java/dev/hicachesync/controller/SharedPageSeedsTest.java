package dev.hicachesync.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hicachesync.tier.PageContent;
import org.junit.jupiter.api.Test;

/** A shared seed is taken only for a page with the same tokens ({@link SharedPageSeeds}). */
class SharedPageSeedsTest {
  @Test
  void aSeedIsTakenOnlyForTheSameTokens() {
    int[] page = {5, 6, 7, 8, 9, 10, 11, 12};
    assertEquals(PageContent.seed(page, 0, 8), SharedPageSeeds.seed(page, 0, 8));
    assertEquals(PageContent.seed(page, 0, 8), SharedPageSeeds.seed(page.clone(), 0, 8), "an equal page");
    page[1] = 60; // first, middle and last token unchanged: the same slot; the caller reused its array
    assertEquals(PageContent.seed(page, 0, 8), SharedPageSeeds.seed(page, 0, 8));
    int[] longer = {0, 0, 5, 60, 7, 8, 9, 10, 11, 12};
    assertEquals(PageContent.seed(longer, 2, 8), SharedPageSeeds.seed(longer, 2, 8), "a range of another array");
    assertEquals(PageContent.seed(longer, 2, 4), SharedPageSeeds.seed(longer, 2, 4), "a shorter page");
  }
}
