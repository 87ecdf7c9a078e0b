package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link AbstractHostSlotLedgerLincheckTest} on the production {@link HostSlotLedger}. */
@Tag("lincheck")
public class HostSlotLedgerLincheckTest extends AbstractHostSlotLedgerLincheckTest {
  public HostSlotLedgerLincheckTest() {
    super(real());
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(3, 2, HostSlotLedgerSpec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 2, HostSlotLedgerSpec.class).check(getClass());
  }
}
