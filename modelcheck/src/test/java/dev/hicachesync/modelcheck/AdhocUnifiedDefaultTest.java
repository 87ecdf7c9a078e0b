package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * An ad-hoc {@code check} that names no version checks the protocol SGLang runs today, {@code
 * unified}, with HiCacheUnified.tla; the other versions keep their modules. No TLC run here ({@code
 * check --cp 2 --tp 1} end to end is measured in docs/reference/measurements.md).
 */
class AdhocUnifiedDefaultTest {

  @Test
  void noVersionMeansUnifiedOnHiCacheUnified() throws Exception {
    AdhocModel m = AdhocModel.of(1, 2, 1, 1, null, null, null);
    assertEquals("unified", m.version());
    assertEquals(AdhocModule.UNIFIED, m.module());
    assertEquals("HiCacheUnified", m.module().spec());
    assertEquals("timeout", m.policy());
    String cfg = m.render(Files.readString(TestSpecs.root().resolve("modelcheck/models/" + m.module().template())));
    assertTrue(cfg.contains("Policy = \"timeout\"") && cfg.contains("CP = 2") && cfg.contains("StorageOn = TRUE"),
        cfg);
    assertTrue(cfg.contains("INVARIANTS") && cfg.contains("PROPERTIES"), cfg);
  }

  @Test
  void explicitVersionsKeepTheirModules() throws Exception {
    assertEquals(AdhocModule.SYNC, AdhocModel.of(1, 2, 1, 1, "merged", null, null).module());
    assertEquals(AdhocModule.REPLICAS, AdhocModel.of(2, 2, 1, 1, "merged", null, null).module());
    assertEquals(AdhocModule.UNIFIED, AdhocModel.of(1, 2, 2, 1, "unified", "wait_complete", "off").module());
  }

  @Test
  void unifiedWithStagesOrReplicasIsRefused() {
    BadInputException pp = assertThrows(BadInputException.class, () -> AdhocModel.of(1, 1, 1, 2, null, null, null));
    assertTrue(pp.getMessage().contains("--dp 1 --pp 1 only") && pp.getMessage().contains("--version merged"),
        pp.getMessage());
    assertThrows(BadInputException.class, () -> AdhocModel.of(2, 1, 1, 1, "unified", null, null));
  }
}
