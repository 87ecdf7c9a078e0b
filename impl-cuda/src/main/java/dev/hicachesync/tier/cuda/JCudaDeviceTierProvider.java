package dev.hicachesync.tier.cuda;

import dev.hicachesync.tier.CudaProbe;
import dev.hicachesync.tier.DeviceTier;
import dev.hicachesync.tier.GpuDeviceTierProvider;
import jcuda.runtime.JCuda;
import jcuda.runtime.cudaError;

/**
 * The JCuda device tier as a service: {@code DeviceTiers.open} finds it on the class path, probes once and
 * opens a {@link JCudaDeviceTier} when a driver and a device are present.
 *
 * <p>Why catch {@link LinkageError}: without a driver the first touch of JCuda throws {@code
 * UnsatisfiedLinkError} (its native library cannot link {@code libcuda}) and every later touch {@code
 * NoClassDefFoundError}; {@code DeviceTiers} probes once and caches the answer.
 */
public final class JCudaDeviceTierProvider implements GpuDeviceTierProvider {

  /** For {@link java.util.ServiceLoader}. */
  public JCudaDeviceTierProvider() {}

  @Override
  public CudaProbe probe() {
    try {
      int[] count = new int[1];
      int rc = JCuda.cudaGetDeviceCount(count);
      if (rc != cudaError.cudaSuccess) {
        return new CudaProbe(false, 0, "cudaGetDeviceCount: " + cudaError.stringFor(rc));
      }
      if (count[0] == 0) {
        return new CudaProbe(false, 0, "CUDA driver reports 0 devices");
      }
      int[] driver = new int[1];
      JCuda.cudaDriverGetVersion(driver);
      return new CudaProbe(true, count[0], count[0] + " device(s), driver " + driver[0]);
    } catch (LinkageError e) {
      return new CudaProbe(false, 0, "no CUDA driver (" + e.getClass().getSimpleName() + ": " + firstLine(e) + ")");
    } catch (RuntimeException e) {
      return new CudaProbe(false, 0, "CUDA probe failed (" + e.getClass().getSimpleName() + ": " + firstLine(e) + ")");
    }
  }

  @Override
  public DeviceTier open(int capacityPages, int layers, int layerBytes, int device) {
    return new JCudaDeviceTier(capacityPages, layers, layerBytes, device);
  }

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
