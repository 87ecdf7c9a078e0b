package dev.hicachesync.bench;

import dev.hicachesync.storage.PageKey;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One storage key link ({@link PageKey#chain}) of a 64-token page, against the plain definition (a fresh
 * {@code MessageDigest}, the previous hex re-encoded, a fresh buffer): what every page of a replay pays.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PageKeyBenchmark {
  private final int[] tokens = new int[64 * 16];
  private PageKey prev;
  private String prevHex;
  private int page;

  @Setup
  public void setup() {
    for (int i = 0; i < tokens.length; i++) {
      tokens[i] = i * 7919;
    }
    prev = PageKey.first(new int[] {1});
    prevHex = prev.hash();
  }

  @Benchmark
  public PageKey chain() {
    int from = (page++ & 15) * 64;
    return PageKey.chain(prev, tokens, from, 64);
  }

  @Benchmark
  public String baselinePlainSha256() throws Exception {
    int from = (page++ & 15) * 64;
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(prevHex.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    ByteBuffer b = ByteBuffer.allocate(4 * 64);
    for (int i = from; i < from + 64; i++) {
      b.putInt(tokens[i]);
    }
    sha.update(b.array());
    return HexFormat.of().formatHex(sha.digest());
  }
}
