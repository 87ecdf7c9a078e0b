package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The prefetch-progress check bites: the controller's own progress logic run from a real I/O thread and the
 * scheduler with no exclusion must be rejected. The race: the scheduler sees {@code reading == false} in
 * the instant between one batch landing and the next being issued, marks the tail ready, and S3 may free
 * slots the next read writes into (INV-7, {@code HostSlotSafety}).
 */
@Tag("lincheck")
public class UnsyncedPrefetchProgressLincheckTest extends AbstractPrefetchProgressLincheckTest {
  public UnsyncedPrefetchProgressLincheckTest() {}

  @Override
  <T> T side(Supplier<T> body) {
    return body.get();
  }

  @Test
  void modelCheckingRejects() {
    LincheckRuns.assertRejected(
        () -> LincheckRuns.modelCheckingBroken(2, 2).actorsBefore(0).check(getClass()), null);
  }
}
