package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractPrefetchProgressLincheckTest} with the I/O callback and the scheduler's termination
 * excluding each other on the operation's monitor: the controller's logic is then linearizable (the tail is
 * ready only after the reader stopped, and the count the scheduler inserts is one the reader reached).
 *
 * <p>Note: {@link PrefetchOperation}'s fields are plain and documented "scheduler thread only"; the
 * simulator runs I/O callbacks on the rank's thread. A production build with a real I/O thread needs this
 * exclusion: {@link UnsyncedPrefetchProgressLincheckTest} shows what happens without it.
 */
@Tag("lincheck")
public class PrefetchProgressLincheckTest extends AbstractPrefetchProgressLincheckTest {
  public PrefetchProgressLincheckTest() {}

  @Override
  <T> T side(Supplier<T> body) {
    synchronized (op) {
      return body.get();
    }
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(2, 2).actorsBefore(0).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(2, 2).actorsBefore(0).check(getClass());
  }
}
