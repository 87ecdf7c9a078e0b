package dev.hicachesync.tier;

import java.nio.ByteBuffer;

/** Argument checks shared by the device tiers, this package's and those built elsewhere (the JCuda tier). */
public final class Transfers {
  private Transfers() {}

  /** Checks that a device↔host copy pairs pages one to one between pools of the same page shape. */
  public static void check(PageGeometry device, int[] devicePages, HostPool host, int[] hostPages) {
    if (devicePages.length != hostPages.length) {
      throw new IllegalArgumentException(
          devicePages.length + " device pages paired with " + hostPages.length + " host pages");
    }
    if (host.layers() != device.layers() || host.layerBytes() != device.layerBytes()) {
      throw new IllegalArgumentException("host pool " + host.describe() + " does not match device pages of "
          + device.layers() + " layers x " + device.layerBytes() + " B");
    }
    for (int p : devicePages) {
      device.checkPage(p);
    }
    for (int p : hostPages) {
      if (p < 0 || p >= host.capacityPages()) {
        throw new IndexOutOfBoundsException("host page " + p + " is outside [0, " + host.capacityPages() + ")");
      }
    }
  }

  /** Checks that {@code b} has room for (or holds) one page of {@code pageBytes}. */
  public static void checkRoom(ByteBuffer b, int pageBytes) {
    if (b.remaining() < pageBytes) {
      throw new IllegalArgumentException("buffer has " + b.remaining() + " bytes left, a page needs " + pageBytes);
    }
  }
}
