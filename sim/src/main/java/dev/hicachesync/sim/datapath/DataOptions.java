package dev.hicachesync.sim.datapath;

import dev.hicachesync.tier.DeviceChoice;
import dev.hicachesync.tier.HostLayout;

/**
 * Whether and how a simulation moves real KV bytes (see {@link DataPath}).
 *
 * @param on move bytes through a device tier, a host pool and the storage, and check them on arrival
 * @param hostLayout the host pool's layout
 * @param layers layers per page
 * @param layerBytes bytes per layer of a page (a multiple of 8)
 * @param device which device tier to open ({@code auto}: JCuda when CUDA is present, simulated otherwise)
 */
public record DataOptions(boolean on, HostLayout hostLayout, int layers, int layerBytes, DeviceChoice device) {
  /** Page counts only: no bytes move. */
  public static final DataOptions OFF = new DataOptions(false, HostLayout.PAGE_FIRST, 2, 64, DeviceChoice.AUTO);

  /** Checks the sizes (one-line {@link IllegalArgumentException}). */
  public DataOptions {
    if (layers < 1 || layerBytes < 8 || layerBytes % 8 != 0) {
      throw new IllegalArgumentException(
          "a page needs >= 1 layer of a multiple of 8 bytes (>= 8), got " + layers + " x " + layerBytes + " B");
    }
  }

  /** Returns options that move bytes: {@code pageBytes} per page in {@code layers} layers, the tier {@code auto} picks. */
  public static DataOptions on(HostLayout layout, int layers, int pageBytes) {
    if (layers < 1 || pageBytes % layers != 0) {
      throw new IllegalArgumentException("page bytes " + pageBytes + " do not split into " + layers + " layers");
    }
    return new DataOptions(true, layout, layers, pageBytes / layers, DeviceChoice.AUTO);
  }

  /** Returns these options with another device choice. */
  public DataOptions withDevice(DeviceChoice d) {
    return new DataOptions(on, hostLayout, layers, layerBytes, d);
  }

  /** Returns the bytes of one page. */
  public int pageBytes() {
    return layers * layerBytes;
  }
}
