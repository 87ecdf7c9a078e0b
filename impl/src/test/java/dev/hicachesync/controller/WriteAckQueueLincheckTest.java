package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractAckQueueLincheckTest} on the controller's write-ack queue: {@code CopyAckQueue.leadingDone}
 * scans events that copy engines complete concurrently; it is linearizable because an event never
 * becomes undone (the scan's stop point is a valid instant).
 */
@Tag("lincheck")
public class WriteAckQueueLincheckTest extends AbstractAckQueueLincheckTest {
  public WriteAckQueueLincheckTest() {
    super(real());
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(3, 2, AckQueueSpec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 2, AckQueueSpec.class).check(getClass());
  }
}
