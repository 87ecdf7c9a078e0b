package dev.hicachesync.storage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
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
  /** Longest suffix accepted; keeps every file name well under 255 bytes. */
  static final int MAX_SUFFIX = 64;

  /**
   * The hash's 64 lower-case hex digits as ASCII bytes: what the next link hashes, what keys compare by.
   * Never modified. Why bytes and not a string: a replay makes a key per page per rank, and the string
   * (a copy of these bytes) was built for every one of them and read by none on the hot path.
   */
  private final byte[] hashAscii;
  /**
   * The hash as four big-endian longs (the value of each 16 hex digits of {@link #hashAscii}). Never
   * modified. Why: the in-memory L3 keys its tables by them, and parsing them from the hex digits at every
   * put, get and exists was a twentieth of a replay's profile.
   */
  private final long[] words;
  private final String suffix;
  /** {@link #hashAscii} as a string, or null until {@link #hash()} is first asked (benign race). */
  private String hash;
  /** {@code hash().hashCode()}, or 0 until first computed (benign race, as {@code String}'s own). */
  private int hashHash;

  private PageKey(byte[] hashAscii, long[] words, String suffix, String hash) {
    this.hashAscii = hashAscii;
    this.words = words;
    this.suffix = suffix;
    this.hash = hash;
  }

  /** Returns the key of the first page of a sequence with {@code tokens}. */
  public static PageKey first(int[] tokens) {
    return chain(null, tokens);
  }

  /** Returns the key of the page with {@code pageTokens} that follows {@code prev} (null: the first page). */
  public static PageKey chain(PageKey prev, int[] pageTokens) {
    return chain(prev, pageTokens, 0, pageTokens.length);
  }

  /**
   * Returns the key of the page with tokens {@code tokens[from, from + len)} that follows {@code prev}
   * (null: the first page): the same key as {@link #chain(PageKey, int[])} of that range, without a copy.
   *
   * <p>Why this shape: a replay hashes every page of every prompt; looking SHA-256 up per call,
   * re-encoding the previous hash and allocating buffers cost more than the hash itself. So each thread
   * keeps its digest and byte buffer, and a key keeps its hex digits as ASCII bytes for the next link. A key
   * another thread chained from the same previous key and tokens moments ago is taken from {@link
   * SharedPageKeys} (the replicas of a simulation all hash the same pages).
   */
  public static PageKey chain(PageKey prev, int[] tokens, int from, int len) {
    PageKey known = SharedPageKeys.find(prev, tokens, from, len);
    if (known != null) { // another rank hashed this page after the same key (SharedPageKeys)
      return known;
    }
    PageKey key = computeChain(prev, tokens, from, len);
    SharedPageKeys.remember(prev, tokens, from, len, key);
    return key;
  }

  /** {@link #chain(PageKey, int[], int, int)} computed: SHA-256 of the previous hash's digits and the tokens. */
  static PageKey computeChain(PageKey prev, int[] tokens, int from, int len) {
    Hasher h = HASHER.get();
    MessageDigest sha = h.sha;
    if (prev != null) {
      sha.update(prev.hashAscii); // the suffix is not part of the chain
    }
    byte[] buf = h.buffer(4 * len);
    for (int i = 0, b = 0; i < len; i++, b += 4) { // big-endian int32 per token
      int v = tokens[from + i];
      buf[b] = (byte) (v >>> 24);
      buf[b + 1] = (byte) (v >>> 16);
      buf[b + 2] = (byte) (v >>> 8);
      buf[b + 3] = (byte) v;
    }
    sha.update(buf, 0, 4 * len);
    // Digest into the thread's buffer and write the hex digits straight into the key's own byte array:
    // one array and one string per key (the HexFormat route made five allocations).
    try {
      sha.digest(h.digest, 0, DIGEST_BYTES);
    } catch (java.security.DigestException e) {
      throw new AssertionError("SHA-256 digests are 32 bytes", e);
    }
    byte[] d = h.digest;
    byte[] ascii = new byte[2 * DIGEST_BYTES];
    long[] words = new long[4];
    for (int i = 0; i < DIGEST_BYTES; i++) {
      int b = d[i] & 0xff;
      ascii[2 * i] = HEX_DIGITS[b >>> 4];
      ascii[2 * i + 1] = HEX_DIGITS[b & 0xf];
      words[i >>> 3] = words[i >>> 3] << 8 | b;
    }
    return new PageKey(ascii, words, "", null);
  }

  private static final int DIGEST_BYTES = 32;
  /** Lower-case hex digits, as {@link HexFormat#of()} writes them. */
  private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /** One thread's SHA-256 and token buffer. */
  private static final class Hasher {
    private final MessageDigest sha = sha256();
    private final byte[] digest = new byte[DIGEST_BYTES];
    private byte[] bytes = new byte[4 * 64];

    byte[] buffer(int size) {
      if (bytes.length < size) {
        bytes = new byte[Math.max(size, 2 * bytes.length)];
      }
      return bytes;
    }
  }

  private static final ThreadLocal<Hasher> HASHER = ThreadLocal.withInitial(Hasher::new);

  /** The hash's hex digits as ASCII bytes, shared: callers in this package must not modify them. */
  byte[] asciiHash() {
    return hashAscii;
  }

  /** The hash as four big-endian longs, shared: callers in this package must not modify them. */
  long[] hashWords() {
    return words;
  }

  /** The 16 hex digits at {@code from} as a long (lower-case digits, as the factories make and check them). */
  private static long word(byte[] hex, int from) {
    long v = 0;
    for (int j = from; j < from + 16; j++) {
      int c = hex[j];
      v = v << 4 | (c <= '9' ? c - '0' : c - 'a' + 10);
    }
    return v;
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
    byte[] ascii = hex.getBytes(StandardCharsets.US_ASCII);
    long[] words = new long[4];
    for (int i = 0; i < 4; i++) {
      words[i] = word(ascii, 16 * i);
    }
    return new PageKey(ascii, words, "", hex);
  }

  /** Returns this key in the key space {@code suffix} (any text up to 64 chars; "" for none). */
  public PageKey withSuffix(String suffix) {
    Objects.requireNonNull(suffix, "suffix");
    if (suffix.length() > MAX_SUFFIX) {
      throw new IllegalArgumentException("key suffix longer than " + MAX_SUFFIX + " chars: " + suffix.length());
    }
    PageKey k = new PageKey(hashAscii, words, suffix, hash);
    k.hashHash = hashHash;
    return k;
  }

  /** Returns the 64-digit hex hash. */
  public String hash() {
    String h = hash;
    if (h == null) {
      h = new String(hashAscii, StandardCharsets.ISO_8859_1);
      hash = h; // benign race: every thread builds an equal string
    }
    return h;
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
    return o instanceof PageKey k && Arrays.equals(k.hashAscii, hashAscii) && k.suffix.equals(suffix);
  }

  /** Returns {@code hash().hashCode() * 31 + suffix().hashCode()}, as it always was (tree digests mix it). */
  @Override
  public int hashCode() {
    int h = hashHash;
    if (h == 0) {
      h = hash().hashCode();
      hashHash = h;
    }
    return h * 31 + suffix.hashCode();
  }

  /** Returns {@code hash} or {@code hash@suffix}. */
  @Override
  public String toString() {
    return suffix.isEmpty() ? hash() : hash() + "@" + suffix;
  }
}
