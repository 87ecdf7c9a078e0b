package dev.hicachesync.modelcheck;

import dev.hicachesync.topology.Topology;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CatalogueTest {

  @TempDir Path dir;

  private static final String GOOD =
      "{ \"name\": \"m\", \"module\": \"MC\", \"cfg\": \"m.cfg\", \"tier\": \"ci\", \"version\": \"merged\","
          + " \"topology\": {\"dp\": 1, \"cp\": 2, \"tp\": 1}, \"expected\": \"holds\", \"liveness\": true }";

  private Path write(String json) throws Exception {
    Path file = dir.resolve("catalogue.json");
    Files.writeString(file, json);
    return file;
  }

  @Test
  void loadsTheTestCatalogueAndSelectsTiers() throws Exception {
    Catalogue c = Catalogue.load(TestSpecs.dir().resolve("catalogue.json"));
    assertEquals(6, c.models().size());
    assertEquals(List.of("ok", "diverge"), c.tier(Tier.CI).stream().map(ModelEntry::name).toList());
    assertEquals(4, c.tier(Tier.DEEP).size());
    assertEquals(6, c.tier(null).size());
    assertEquals(List.of("liveness", "ok"), c.named(List.of("liveness", "ok")).stream().map(ModelEntry::name).toList());
    ModelEntry diverge = c.named(List.of("diverge")).get(0);
    assertEquals(Verdict.violates("Agreement"), diverge.expectedVerdict());
    assertEquals(new Topology(1, 2, 1, 1), diverge.topology());
    assertEquals("#1", diverge.ref());
  }

  @Test
  void defaultsPpToOneAndTierToCi() throws Exception {
    ModelEntry m = Catalogue.load(write("{\"models\": [" + GOOD.replace("\"tier\": \"ci\",", "") + "]}")).models().get(0);
    assertEquals(1, m.topology().pp());
    assertEquals(Tier.CI, m.tierValue());
    assertTrue(m.hasLiveness());
  }

  /** The unified radix cache (#35081) is a catalogue version of its own module (HiCacheUnified), not of HiCacheSync. */
  @Test
  void acceptsTheUnifiedVersionInTheCatalogueOnly() throws Exception {
    String unified = GOOD.replace("\"version\": \"merged\"", "\"version\": \"unified\"")
        .replace("\"module\": \"MC\"", "\"module\": \"MCHiCacheUnified\"");
    ModelEntry m = Catalogue.load(write("{\"models\": [" + unified + "]}")).models().get(0);
    assertEquals("unified", m.version());
    assertTrue(!ProtocolVersions.ALL.contains("unified"), "HiCacheSync (and its ad-hoc models) has no unified");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "\"tier\": \"ci\"|\"tier\": \"fast\"|tier 'fast'",
    "\"version\": \"merged\"|\"version\": \"v2\"|version 'v2'",
    "\"expected\": \"holds\"|\"expected\": \"fails\"|expected verdict 'fails'",
    "\"cp\": 2|\"cp\": 0|topology",
    "\"cfg\": \"m.cfg\"|\"cfg\": \"../m.cfg\"|cfg must be",
    "\"name\": \"m\"|\"name\": \"\"|name must be",
  })
  void rejectsBadValuesInOneLine(String good, String bad, String mentions) throws Exception {
    Path file = write("{\"models\": [" + GOOD.replace(good, bad) + "]}");
    BadInputException e = assertThrows(BadInputException.class, () -> Catalogue.load(file));
    assertTrue(e.getMessage().contains(mentions), e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
  }

  @Test
  void rejectsDuplicatesUnknownNamesMalformedJsonAndMissingFile() throws Exception {
    assertThrows(BadInputException.class, () -> Catalogue.load(write("{\"models\": [" + GOOD + "," + GOOD + "]}")));
    Catalogue c = Catalogue.load(write("{\"models\": [" + GOOD + "]}"));
    assertTrue(assertThrows(BadInputException.class, () -> c.named(List.of("x"))).getMessage().contains("'x'"));
    BadInputException json = assertThrows(BadInputException.class, () -> Catalogue.load(write("{\"models\": [")));
    assertEquals(1, json.getMessage().lines().count(), json.getMessage());
    assertThrows(BadInputException.class, () -> Catalogue.load(dir.resolve("none.json")));
  }
}
