package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One cfg text checked by TLC in a test, expected to hold: the view-count tests compare two views by
 * the distinct states of such runs (SyncViewCountsTest, PipelineViewCountsTest).
 */
final class HoldingCfgRun {

  private HoldingCfgRun() {}

  /** Writes {@code cfg} as {@code name.cfg} in {@code dir}, checks it against {@code module}, returns its distinct states. */
  static long distinct(Workspace workspace, Path dir, String module, String jobPrefix, String heap, String name,
      String cfg) throws Exception {
    Path file = dir.resolve(name + ".cfg");
    Files.writeString(file, cfg);
    TlcJob job = new TlcJob(jobPrefix + name, module, file,
        List.of(workspace.spec(), workspace.models()), dir, 1, Duration.ofMinutes(5), List.of(heap));
    TlcResult r = new TlcRunner(TlcJar.locate(), ProgressListener.NONE, TlcBatch.RESIDENT).run(job);
    assertEquals(Verdict.HOLDS, r.verdict(), name + ": TLC output in " + r.log());
    return r.distinct();
  }
}
