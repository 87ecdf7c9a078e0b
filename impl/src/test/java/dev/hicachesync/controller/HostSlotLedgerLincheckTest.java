package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractHostSlotLedgerLincheckTest} on the production {@link HostSlotLedger}. Model checking gets
 * at least {@link #SCENARIOS} scenarios: a non-atomic decrement in the production ledger ({@code
 * busy.set(s, busy.get(s) - 1)}, a lost update) survived the default 4 and is caught at 30.
 */
@Tag("lincheck")
public class HostSlotLedgerLincheckTest extends AbstractHostSlotLedgerLincheckTest {
  public HostSlotLedgerLincheckTest() {
    super(real());
  }

  /** Scenarios the model checker explores at least. */
  static final int SCENARIOS = 30;

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(3, 2, HostSlotLedgerSpec.class)
        .iterations(Math.max(LincheckRuns.ITERATIONS, SCENARIOS)).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 2, HostSlotLedgerSpec.class).check(getClass());
  }
}
