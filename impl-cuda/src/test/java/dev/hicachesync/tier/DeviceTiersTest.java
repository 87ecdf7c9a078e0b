package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.tier.cuda.JCudaDeviceTier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Probing through the JCuda provider and fallback; tagged gpu because it touches the CUDA natives (its own fork). */
@Tag("gpu")
class DeviceTiersTest {
  private final ManualTicker ticker = new ManualTicker();

  @Test
  void autoPicksJCudaWhenPresentElseSimulatedAndSaysWhy() {
    CudaProbe p = DeviceTiers.probe();
    assertSame(p, DeviceTiers.probe(), "probed once");
    System.out.println("CUDA probe: " + p);
    // with this artifact on the class path the JCuda provider is found and asked, whatever it answers
    assertFalse(p.detail().contains("no GPU device tier found"), p.detail());
    try (DeviceTier t = DeviceTiers.open(4, 2, 64, ticker, LatencyModel.zero(), 0)) {
      System.out.println("device tier: " + t.describe());
      if (p.available()) {
        assertInstanceOf(JCudaDeviceTier.class, t);
        assertTrue(t.describe().startsWith("jcuda device 0"), t.describe());
      } else {
        assertInstanceOf(SimulatedDeviceTier.class, t);
        assertTrue(t.describe().contains(p.detail()), t.describe());
        assertThrows(IllegalStateException.class,
            () -> DeviceTiers.open(DeviceChoice.CUDA, 4, 2, 64, ticker, LatencyModel.zero(), 0));
      }
    }
  }

  @Test
  void simulatedOnRequest() {
    try (DeviceTier t = DeviceTiers.open(DeviceChoice.parse("simulated"), 4, 2, 64, ticker, LatencyModel.zero(), 1)) {
      assertInstanceOf(SimulatedDeviceTier.class, t);
    }
    assertThrows(IllegalArgumentException.class, () -> DeviceChoice.parse("tpu"));
  }
}
