package dev.hicachesync.tier;

import java.util.Locale;

/** Which device tier {@link DeviceTiers#open} should build. */
public enum DeviceChoice {
  /** JCuda when a driver and a device are present, the simulated tier otherwise. */
  AUTO,
  /** Always the simulated tier (the simulator, tests). */
  SIMULATED,
  /** JCuda or fail: for runs that must use the GPU. */
  CUDA;

  /** Parses {@code auto}, {@code simulated} or {@code cuda}; throws {@link IllegalArgumentException} otherwise. */
  public static DeviceChoice parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown device choice '" + s + "'; expected auto, simulated or cuda");
    }
  }
}
