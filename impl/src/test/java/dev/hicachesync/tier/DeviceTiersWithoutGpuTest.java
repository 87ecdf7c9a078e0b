package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.ManualTicker;
import org.junit.jupiter.api.Test;

/**
 * The core alone (no {@code hicache-sync-cuda} on the test class path): no provider is found, AUTO falls back
 * to the simulated tier and says why, CUDA fails with that reason.
 */
class DeviceTiersWithoutGpuTest {
  private final ManualTicker ticker = new ManualTicker();

  @Test
  void withoutAProviderAutoIsSimulatedAndCudaFailsNamingTheMissingArtifact() {
    CudaProbe p = DeviceTiers.probe();
    assertFalse(p.available(), p.toString());
    assertTrue(p.detail().contains("hicache-sync-cuda"), p.detail());
    try (DeviceTier t = DeviceTiers.open(4, 2, 64, ticker, LatencyModel.zero(), 0)) {
      assertInstanceOf(SimulatedDeviceTier.class, t);
      assertTrue(t.describe().contains(p.detail()), t.describe());
    }
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> DeviceTiers.open(DeviceChoice.CUDA, 4, 2, 64, ticker, LatencyModel.zero(), 0));
    assertTrue(e.getMessage().contains("hicache-sync-cuda"), e.getMessage());
  }
}
