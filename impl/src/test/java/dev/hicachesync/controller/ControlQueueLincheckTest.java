package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractControlQueueLincheckTest} on the controller's own backup-ack queue (the revoke and
 * host-release queues have the same type and use): two producer threads and the scheduler.
 */
@Tag("lincheck")
public class ControlQueueLincheckTest extends AbstractControlQueueLincheckTest {
  public ControlQueueLincheckTest() {
    super(ControllerFixtures.controller().backupAckQueue);
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(3, 2).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 2).check(getClass());
  }
}
