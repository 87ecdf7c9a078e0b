package dev.hicachesync.tier;

import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.Ticker;
import jcuda.runtime.JCuda;
import jcuda.runtime.cudaError;

/**
 * Opens the device tier: probes CUDA once per JVM and builds a {@link JCudaDeviceTier} when a driver and a
 * device are present, a {@link SimulatedDeviceTier} otherwise; {@link DeviceTier#describe()} says which
 * and why.
 *
 * <p>Why catch {@link LinkageError}: without a driver the first touch of JCuda throws {@code
 * UnsatisfiedLinkError} (its native library cannot link {@code libcuda}) and every later touch {@code
 * NoClassDefFoundError}; the probe runs once and caches the answer. Any thread.
 */
public final class DeviceTiers {
  /** Guarded by the class lock. */
  private static CudaProbe probe;

  private DeviceTiers() {}

  /** Returns the result of probing CUDA, probing on the first call only. */
  public static synchronized CudaProbe probe() {
    if (probe == null) {
      probe = doProbe();
    }
    return probe;
  }

  private static CudaProbe doProbe() {
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

  private static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /** Opens the tier {@link DeviceChoice#AUTO} picks for {@code rank}; see the full overload. */
  public static DeviceTier open(
      int capacityPages, int layers, int layerBytes, Ticker ticker, LatencyModel latency, int rank) {
    return open(DeviceChoice.AUTO, capacityPages, layers, layerBytes, ticker, latency, rank);
  }

  /**
   * Opens a device pool of {@code capacityPages} pages of {@code layers} × {@code layerBytes} bytes for
   * {@code rank} (CUDA device {@code rank % deviceCount}); {@code ticker} and {@code latency} time the
   * simulated tier and are unused on a GPU.
   *
   * @throws IllegalStateException if {@code choice} is {@link DeviceChoice#CUDA} and CUDA is unavailable
   */
  public static DeviceTier open(DeviceChoice choice, int capacityPages, int layers, int layerBytes,
      Ticker ticker, LatencyModel latency, int rank) {
    if (choice == DeviceChoice.SIMULATED) {
      return new SimulatedDeviceTier(capacityPages, layers, layerBytes, ticker, latency, rank, "requested");
    }
    CudaProbe p = probe();
    if (p.available()) {
      return new JCudaDeviceTier(capacityPages, layers, layerBytes, rank % p.deviceCount());
    }
    if (choice == DeviceChoice.CUDA) {
      throw new IllegalStateException("CUDA device tier requested but unavailable: " + p.detail());
    }
    return new SimulatedDeviceTier(capacityPages, layers, layerBytes, ticker, latency, rank, p.detail());
  }
}
