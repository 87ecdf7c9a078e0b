package dev.hicachesync.workload;

import java.util.Arrays;

/**
 * One request of a Mooncake trace: arrival time, input and output lengths, and the prefix block hashes.
 *
 * <p>{@code index} is the 0-based position among the trace's requests (blank lines skipped);
 * {@code line} is the 1-based line of the file it came from; {@code outputBase} is the sum of the
 * output lengths of all earlier requests, where the request's synthetic output tokens start.
 * Block {@code i} covers input tokens {@code [512·i, min(512·(i+1), inputLength))}; the reader has
 * checked that every block is non-empty, so only the last one can be partial.
 */
public record MooncakeRequest(int index, long line, long timestampMs, int inputLength, int outputLength,
    long[] hashIds, long outputBase) {

  /** Tokens per block of the trace format (the Mooncake release's block size). */
  public static final int BLOCK_TOKENS = 512;

  /** Number of blocks of the input, the last one possibly partial. */
  public int blocks() {
    return hashIds.length;
  }

  /** Number of input tokens in block {@code b} (512, or fewer for the last block). */
  public int blockLength(int b) {
    return Math.min(BLOCK_TOKENS, inputLength - b * BLOCK_TOKENS);
  }

  // Records compare arrays by identity; a request is a value, so compare the hashes by content.
  @Override
  public boolean equals(Object o) {
    return o instanceof MooncakeRequest r
        && index == r.index && line == r.line && timestampMs == r.timestampMs
        && inputLength == r.inputLength && outputLength == r.outputLength
        && outputBase == r.outputBase && Arrays.equals(hashIds, r.hashIds);
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(timestampMs) + 17 * inputLength + Arrays.hashCode(hashIds) + index;
  }

  @Override
  public String toString() {
    return "MooncakeRequest[#" + index + " line " + line + ", t=" + timestampMs + "ms, in=" + inputLength
        + ", out=" + outputLength + ", blocks=" + hashIds.length + "]";
  }
}
