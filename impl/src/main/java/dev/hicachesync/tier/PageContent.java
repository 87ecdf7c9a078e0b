package dev.hicachesync.tier;

import java.nio.ByteBuffer;

/**
 * The KV bytes "compute" writes for a page: a deterministic function of the page's tokens, so that any
 * tier can check that a page holds exactly what was computed for it.
 *
 * <p>Why a seeded stream rather than the tokens themselves: every byte of the page depends on every token,
 * so a page that mixes two sources (a copy racing a reuse) never passes for either. Pages are filled in
 * 8-byte words; page sizes must be a multiple of 8. Stateless; any thread.
 */
public final class PageContent {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private PageContent() {}

  /** Returns the content seed of the page {@code tokens[from, from + len)}. */
  public static long seed(int[] tokens, int from, int len) {
    long h = len;
    for (int i = from; i < from + len; i++) {
      h = fmix(h * GOLDEN + tokens[i]);
    }
    return h;
  }

  /** Writes the {@code bytes} bytes of page {@code seed} at {@code dst}'s position (absolute; position unchanged). */
  public static void fill(long seed, ByteBuffer dst, int bytes) {
    int at = dst.position();
    for (int i = 0; i < bytes; i += 8) {
      dst.putLong(at + i, word(seed, i));
    }
  }

  /** Returns the byte offset of the first word of {@code src} (from its position) that differs from page {@code seed}, or -1. */
  public static int firstMismatch(long seed, ByteBuffer src, int bytes) {
    return firstMismatch(seed, src, src.position(), bytes);
  }

  /**
   * {@link #firstMismatch(long, ByteBuffer, int)} of the page at index {@code at} of {@code src}: only absolute
   * reads, neither position nor limit used, so threads may share one buffer.
   */
  public static int firstMismatch(long seed, ByteBuffer src, int at, int bytes) {
    for (int i = 0; i < bytes; i += 8) {
      if (src.getLong(at + i) != word(seed, i)) {
        return i;
      }
    }
    return -1;
  }

  /** Returns the 8-byte word at {@code offset} of page {@code seed}. */
  static long word(long seed, int offset) {
    return fmix(seed + GOLDEN * (offset + 1));
  }

  private static long fmix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
