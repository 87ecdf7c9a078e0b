package dev.hicachesync.modelcheck.doc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.Catalogue;
import dev.hicachesync.modelcheck.Tier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The catalogue tables of docs/reference/catalogue.md are CatalogueTable's rendering of catalogue.json,
 * row for row. With {@code -Dhicache.docs.write=true} the test writes them instead (and still checks).
 */
class CatalogueDocTest {

  @Test
  void theGeneratedTablesMatchTheCatalogue() throws Exception {
    Path root = Docs.root();
    Path doc = root.resolve(CatalogueTable.DOC);
    Catalogue catalogue = Catalogue.load(root.resolve(CatalogueTable.CATALOGUE));
    String text = Files.readString(doc, StandardCharsets.UTF_8);
    String expected = CatalogueTable.regenerate(text, catalogue);
    if (Boolean.getBoolean("hicache.docs.write") && !expected.equals(text)) {
      Files.writeString(doc, expected, StandardCharsets.UTF_8);
      text = expected;
    }
    List<GeneratedBlocks.Block> blocks = GeneratedBlocks.find(text, CatalogueTable.BLOCK);
    assertEquals(2, blocks.size(), CatalogueTable.DOC + " has a table for the ci tier and one for the deep tier");
    if (!expected.equals(text)) {
      List<String> want = expected.lines().toList();
      List<String> have = text.lines().toList();
      int i = 0;
      while (i < Math.min(want.size(), have.size()) && want.get(i).equals(have.get(i))) {
        i++;
      }
      fail(CatalogueTable.DOC + " differs from " + CatalogueTable.CATALOGUE + " at line " + (i + 1)
          + ":\n  doc:       " + (i < have.size() ? have.get(i) : "(end of file)")
          + "\n  catalogue: " + (i < want.size() ? want.get(i) : "(end of file)")
          + "\nRegenerate the tables with:\n  " + CatalogueTable.REGENERATE);
    }
  }

  @Test
  void everyModelOfATierHasItsRowAndOnlyThose() throws Exception {
    Catalogue catalogue = Catalogue.load(Docs.root().resolve(CatalogueTable.CATALOGUE));
    for (Tier tier : Tier.values()) {
      List<String> rows = CatalogueTable.render(catalogue, tier);
      assertEquals(catalogue.tier(tier).size() + 2, rows.size(), tier.label());
      for (int i = 0; i < catalogue.tier(tier).size(); i++) {
        assertTrue(rows.get(i + 2).startsWith("| `" + catalogue.tier(tier).get(i).name() + "` |"), rows.get(i + 2));
      }
    }
  }

  @Test
  void blocksKeepTheAuthorsTextAndRefuseAnUnclosedMarker() throws Exception {
    String doc = "intro\n<!-- BEGIN x a=1 -->\nold\n<!-- END x -->\noutro\n";
    assertEquals("intro\n<!-- BEGIN x a=1 -->\nnew a=1\n<!-- END x -->\noutro\n",
        GeneratedBlocks.replace(doc, "x", arg -> List.of("new " + arg)));
    assertThrows(BadInputException.class, () -> GeneratedBlocks.find("<!-- BEGIN x a -->\nrow\n", "x"));
  }
}
