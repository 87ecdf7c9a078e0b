package dev.hicachesync.tier;

import dev.hicachesync.env.LatencyModel;
import dev.hicachesync.env.Ticker;
import java.util.Iterator;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Opens the device tier: asks the {@link GpuDeviceTierProvider} on the class or module path (the JCuda tier of the
 * {@code hicache-sync-cuda} artifact) to probe once per JVM and builds its tier when a driver and a device
 * are present, a {@link SimulatedDeviceTier} otherwise; {@link DeviceTier#describe()} says which and why.
 *
 * <p>Why a service and not a direct call: the core artifact has no native dependency, so an engine that
 * never uses a GPU tier does not pull JCuda. Any thread.
 */
public final class DeviceTiers {
  /** Guarded by the class lock. */
  private static CudaProbe probe;
  /** The provider the probe found available, or null; guarded by the class lock. */
  private static GpuDeviceTierProvider provider;

  private DeviceTiers() {}

  /** Returns the result of probing CUDA, probing on the first call only. */
  public static synchronized CudaProbe probe() {
    if (probe == null) {
      probe = doProbe();
    }
    return probe;
  }

  private static synchronized GpuDeviceTierProvider provider() {
    probe();
    return provider;
  }

  private static CudaProbe doProbe() {
    Iterator<GpuDeviceTierProvider> it;
    GpuDeviceTierProvider p;
    try {
      it = ServiceLoader.load(GpuDeviceTierProvider.class, DeviceTiers.class.getClassLoader()).iterator();
      if (!it.hasNext()) {
        return new CudaProbe(false, 0,
            "no GPU device tier found (dev.hicachesync:hicache-sync-cuda is not on the class or module path)");
      }
      p = it.next();
    } catch (ServiceConfigurationError e) {
      return new CudaProbe(false, 0, "GPU device tier failed to load (" + firstLine(e) + ")");
    }
    CudaProbe found;
    try {
      found = p.probe();
    } catch (LinkageError | RuntimeException e) {
      // the provider's own contract is not to throw; a broken one is an unavailable GPU, not a crash
      found = new CudaProbe(false, 0, "GPU probe failed (" + e.getClass().getSimpleName() + ": " + firstLine(e) + ")");
    }
    if (found.available()) {
      provider = p;
    }
    return found;
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
   * {@code rank} (GPU device {@code rank % deviceCount}); {@code ticker} and {@code latency} time the
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
      return provider().open(capacityPages, layers, layerBytes, rank % p.deviceCount());
    }
    if (choice == DeviceChoice.CUDA) {
      throw new IllegalStateException("CUDA device tier requested but unavailable: " + p.detail());
    }
    return new SimulatedDeviceTier(capacityPages, layers, layerBytes, ticker, latency, rank, p.detail());
  }
}
