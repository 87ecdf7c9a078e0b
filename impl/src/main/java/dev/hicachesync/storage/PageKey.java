package dev.hicachesync.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The storage key of one page: a SHA-256 hash chain over the page tokens (hash of the previous page's
 * hash and this page's tokens, as SGLang's {@code get_hash_str}), plus an optional suffix that separates
 * per-rank or per-stage key spaces (B7, B13).
 *
 * <p>Immutable value; any thread.
 */
public final class PageKey {
  private static final HexFormat HEX = HexFormat.of();
  /** Longest suffix accepted; keeps every file name well under 255 bytes. */
  static final int MAX_SUFFIX = 64;

  private final String hash;
  private final String suffix;

  private PageKey(String hash, String suffix) {
    this.hash = hash;
    this.suffix = suffix;
  }

  /** Returns the key of the first page of a sequence with {@code tokens}. */
  public static PageKey first(int[] tokens) {
    return chain(null, tokens);
  }

  /** Returns the key of the page with {@code pageTokens} that follows {@code prev} (null: the first page). */
  public static PageKey chain(PageKey prev, int[] pageTokens) {
    MessageDigest sha = sha256();
    if (prev != null) {
      sha.update(prev.hash.getBytes(StandardCharsets.US_ASCII)); // the suffix is not part of the chain
    }
    ByteBuffer buf = ByteBuffer.allocate(4 * pageTokens.length); // big-endian int32 per token
    for (int t : pageTokens) {
      buf.putInt(t);
    }
    sha.update(buf.array());
    return new PageKey(HEX.formatHex(sha.digest()), "");
  }

  /**
   * Returns the key with hash {@code hex} (64 lower-case hex digits) and no suffix, e.g. read back from a
   * listing.
   *
   * @throws IllegalArgumentException if {@code hex} is not a SHA-256 hex string
   */
  public static PageKey ofHash(String hex) {
    if (hex.length() != 64 || !hex.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      throw new IllegalArgumentException("not a SHA-256 hex hash: '" + hex + "'");
    }
    return new PageKey(hex, "");
  }

  /** Returns this key in the key space {@code suffix} (any text up to 64 chars; "" for none). */
  public PageKey withSuffix(String suffix) {
    Objects.requireNonNull(suffix, "suffix");
    if (suffix.length() > MAX_SUFFIX) {
      throw new IllegalArgumentException("key suffix longer than " + MAX_SUFFIX + " chars: " + suffix.length());
    }
    return new PageKey(hash, suffix);
  }

  /** Returns the 64-digit hex hash. */
  public String hash() {
    return hash;
  }

  /** Returns the suffix, "" when none. */
  public String suffix() {
    return suffix;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("every JDK has SHA-256", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PageKey k && k.hash.equals(hash) && k.suffix.equals(suffix);
  }

  @Override
  public int hashCode() {
    return hash.hashCode() * 31 + suffix.hashCode();
  }

  /** Returns {@code hash} or {@code hash@suffix}. */
  @Override
  public String toString() {
    return suffix.isEmpty() ? hash : hash + "@" + suffix;
  }
}
