package dev.hicachesync.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.hicachesync.testing.QtRuns;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link PageObjectFormat#namesKey}, the byte-wise check that an object names the key asked for, gives the
 * answer of its definition (decode the stored name as UTF-8, compare with {@link PageKey#toString()}) for
 * names that are the key's own, one byte off, cut, lengthened, another key's, or not valid UTF-8, and keys
 * with ASCII, non-ASCII and replacement-character suffixes.
 */
class PageObjectKeyCheckPropertyTest {
  private static final String[] SUFFIX_PARTS = {"", "tp0", "@", "é", "€", "\uFFFD", "a-b_c", "x"};

  @Test
  void agreesWithDecodingTheNameAndComparingText() {
    QtRuns.qt().forAll(longs().all(), integers().between(1, 200)).checkAssert((seed, cases) -> {
      SplittableRandom r = new SplittableRandom(seed);
      for (int c = 0; c < cases; c++) {
        PageKey key = randomKey(r);
        byte[] name = nameFor(key, r);
        boolean definition = new String(name, StandardCharsets.UTF_8).equals(key.toString());
        int pad = r.nextInt(3); // the name is followed by payload bytes in a real object
        ByteBuffer object = ByteBuffer.wrap(Arrays.copyOf(name, name.length + pad));
        assertEquals(definition, PageObjectFormat.namesKey(object, name.length, key),
            "seed " + seed + " case " + c + ": key " + key + ", name " + Arrays.toString(name));
      }
    });
  }

  private static PageKey randomKey(SplittableRandom r) {
    PageKey k = PageKey.first(new int[] {r.nextInt(4)});
    StringBuilder suffix = new StringBuilder();
    for (int i = r.nextInt(4); i > 0; i--) {
      suffix.append(SUFFIX_PARTS[r.nextInt(SUFFIX_PARTS.length)]);
    }
    return k.withSuffix(suffix.toString());
  }

  /** The key's own name, or one changed in one of several ways. */
  private static byte[] nameFor(PageKey key, SplittableRandom r) {
    byte[] own = key.toString().getBytes(StandardCharsets.UTF_8);
    switch (r.nextInt(7)) {
      case 0, 1:
        return own;
      case 2: { // one byte changed, anywhere (hash, '@', suffix)
        byte[] b = own.clone();
        b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        return b;
      }
      case 3:
        return Arrays.copyOf(own, r.nextInt(own.length));
      case 4: { // lengthened by one ASCII or non-ASCII byte
        byte[] b = Arrays.copyOf(own, own.length + 1);
        b[own.length] = r.nextBoolean() ? (byte) 'x' : (byte) 0xff;
        return b;
      }
      case 5: // another key's name (its hash or its suffix may be equal)
        return randomKey(r).toString().getBytes(StandardCharsets.UTF_8);
      default: { // a byte that is not UTF-8 in place of one
        byte[] b = own.clone();
        b[r.nextInt(b.length)] = (byte) 0xff;
        return b;
      }
    }
  }
}
