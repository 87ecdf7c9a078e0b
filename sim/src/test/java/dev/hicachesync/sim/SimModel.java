package dev.hicachesync.sim;

import dev.hicachesync.sync.Invariant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The stateful model's state ({@link StatefulSimTest}): what must be true of the simulator after every
 * command — each safety invariant by name ({@code holds}, or {@code VIOLATED <name>} as observed), no
 * crash, and the requests injected so far. QuickTheories' {@code Sequential.modelCheck} compares the
 * model with the one observed on the {@link SimDriver} after each command.
 *
 * @param arrivals requests injected so far
 * @param checks each invariant's name (and {@code crash}) with its status
 */
record SimModel(int arrivals, Map<String, String> checks) {

  /** Returns the initial model: nothing injected, every invariant holds. */
  static SimModel initial() {
    return new SimModel(0, statuses(i -> true, false));
  }

  /** Returns this model after one more arrival. */
  SimModel withArrival() {
    return new SimModel(arrivals + 1, checks);
  }

  /** Returns each invariant's status under {@code holds} ({@code VIOLATED <name>} otherwise), and the crash's. */
  static Map<String, String> statuses(java.util.function.Predicate<Invariant> holds, boolean crashed) {
    Map<String, String> m = new LinkedHashMap<>();
    for (Invariant i : Invariant.values()) {
      m.put(i.name(), holds.test(i) ? "holds" : "VIOLATED " + i.name());
    }
    m.put("crash", crashed ? "VIOLATED crash" : "none");
    return java.util.Collections.unmodifiableMap(m);
  }
}
