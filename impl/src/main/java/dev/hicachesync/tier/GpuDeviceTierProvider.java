package dev.hicachesync.tier;

/**
 * A device tier on real GPUs, found by {@link java.util.ServiceLoader} so that the core carries no native
 * dependency: the {@code hicache-sync-cuda} artifact provides one on JCuda. {@link DeviceTiers#open} asks
 * the first provider on the class (or module) path to probe, and falls back to the simulated tier when
 * there is none or it finds no device.
 *
 * <p>Implementations need a public no-argument constructor; {@link #probe()} runs once per JVM and must not
 * throw (a missing driver is an unavailable probe, not an error).
 */
public interface GpuDeviceTierProvider {
  /** Probes the driver and its devices; called once, the answer is cached by {@link DeviceTiers}. */
  CudaProbe probe();

  /**
   * Opens a device pool of {@code capacityPages} pages of {@code layers} × {@code layerBytes} bytes on
   * device {@code device} (in {@code [0, probe().deviceCount())}); called only after an available probe.
   */
  DeviceTier open(int capacityPages, int layers, int layerBytes, int device);
}
