package dev.hicachesync.tree;

/**
 * An order-sensitive 64-bit running hash (a splitmix64 finalizer over a multiply-add chain) for digests.
 *
 * <p>Why not {@code Objects.hash}: digests are compared across ranks and runs, so they must not depend on
 * identity hash codes; every input here is a value.
 */
public final class Mix64 {
  private Mix64() {}

  /** Returns the running hash {@code h} extended by {@code v}. */
  public static long mix(long h, long v) {
    return fmix(h * 0x9E3779B97F4A7C15L + v);
  }

  /** Returns the running hash {@code h} extended by every element of {@code vs} and its length. */
  public static long mix(long h, int[] vs) {
    if (vs == null) {
      return mix(h, -1L);
    }
    h = mix(h, vs.length);
    for (int v : vs) {
      h = mix(h, v);
    }
    return h;
  }

  /** Returns splitmix64's finalizer of {@code z}. */
  public static long fmix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
