package dev.hicachesync.modelcheck;

import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The tests' long tier: with {@code -Dhicache.tests.long=true} a parameterized TLC test runs every case; by
 * default (CI, {@code mvn -B verify}) every third, so that each kind of case still runs on every build while
 * the build stays inside CI's time budget. The cases left out are the same forms on other models, each a TLC
 * run of several seconds.
 */
final class LongTier {
  static final String PROPERTY = "hicache.tests.long";
  private static final int STRIDE = 3;

  private LongTier() {}

  /** Whether every case runs. */
  static boolean enabled() {
    return Boolean.getBoolean(PROPERTY);
  }

  /** {@code cases} whole in the long tier, else cases 0, 3, 6, ... */
  static <T> Stream<T> sample(Stream<T> cases) {
    if (enabled()) {
      return cases;
    }
    List<T> all = cases.toList();
    return IntStream.range(0, all.size()).filter(i -> i % STRIDE == 0).mapToObj(all::get);
  }
}
