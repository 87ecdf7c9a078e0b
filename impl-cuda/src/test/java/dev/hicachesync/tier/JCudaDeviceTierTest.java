package dev.hicachesync.tier;

import static org.junit.jupiter.api.Assumptions.assumeTrue;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.tier.cuda.JCudaDeviceTier;
import org.junit.jupiter.api.Tag;

/** The device-tier contract on a real GPU; skipped where {@link DeviceTiers#probe()} finds no CUDA. */
@Tag("gpu")
class JCudaDeviceTierTest extends DeviceTierContractTest {

  @Override
  protected DeviceTier newTier() {
    // Assumed per test (not in @BeforeAll) so that each test is reported as skipped, not silently absent.
    CudaProbe p = DeviceTiers.probe();
    assumeTrue(p.available(), "no CUDA: " + p.detail());
    return new JCudaDeviceTier(PAGES, LAYERS, LAYER_BYTES, 0);
  }

  @Override
  protected void complete(TransferEvent event) {
    event.await();
  }

  @Override
  protected boolean controlsCompletion() {
    return false; // the GPU decides when a copy lands
  }
}
