package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.modelcheck.replay.ModelConstants;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** SANY's copies of the standard modules go to a directory of this JVM's own, not the shared temporary folder. */
class InProcessTlcTest {

  @Test
  void sanyCopiesStandardModulesIntoADirectoryOfThisJvm() throws Exception {
    Path shared = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
    Path copies = Path.of(InProcessTlc.SANY_COPIES).toAbsolutePath();
    assertNotEquals(shared, copies, "SANY would copy into the temporary folder every JVM shares");
    assertEquals(shared, copies.getParent());
    assertTrue(copies.getFileName().toString().startsWith("hicache-sync-sany-"), copies.toString());

    Path models = TestSpecs.root().resolve("modelcheck/models");
    ModelConstants.read(models.resolve("MCHiCacheSync_pre20460_cp2.cfg"), models.resolve("MCHiCacheSync.tla"),
        TestSpecs.root().resolve("spec"));
    assertTrue(Files.isRegularFile(copies.resolve("Naturals.tla")), "SANY parsed the spec from its own copies");
    assertEquals(shared.toString(), Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().toString(),
        "java.io.tmpdir is as it was for everything else");
  }
}
