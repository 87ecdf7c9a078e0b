package dev.hicachesync.modelcheck;

import java.util.List;

/**
 * Which JIT compilers a catalogue model's TLC JVM gets, chosen from the model's recorded size.
 *
 * <p>A TLC run of a catalogue model is short, and HotSpot's optimising compiler (C2) spends
 * several CPU seconds compiling TLC's interpreter before the code it produces pays off. For a
 * small model that is most of the run: measured on this project's 2-core machine (30 Nov 2026,
 * docs/explanation/spec-design.md), C1 only ({@code -XX:TieredStopAtLevel=1}) took {@code post20460_cp2}
 * (7,857 states) from 8.1 to 3.5 user CPU seconds, {@code silent_b10_batch_full_exit} (26,549) from
 * 9.5 to 5.0, a 30-state model from 1.5–1.8 to 0.8–1.0, and the liveness model
 * {@code post20460_cp2_live} (884 states) from 8.2 to 4.4; but the liveness model {@code post20460_cp2tp2_live} (9,382
 * states, where every state costs many ENABLED evaluations) went from 31.7 to 35.2, and
 * {@code pipelined_cp2_live} (2,003) from 18.2 to 20.2 ({@code merged_cp2tp2_live}, 4,570: 24.5
 * to 22.7, too close to call). So C1 below a size, C2 (the JVM's default) above it or when the
 * size is not known. The choice changes only speed: the same TLC explores the same states.
 *
 * <p>Since the liveness properties share one pass (1 Dec 2026, docs/explanation/spec-design.md, "Liveness in
 * one pass"), a liveness state costs far less, and C1 won on every liveness model of the
 * catalogue measured: {@code post20460_cp2tp2_live} (9,382) 17.5 → 16.5 CPU seconds,
 * {@code merged_cp2tp2_live} (4,570) 12.7 → 10.7, {@code pipelined_cp2_live} (2,003) 8.7 → 6.0.
 * The liveness limit is therefore 10,000; the unified liveness models (12,593–19,137 states,
 * their properties not restated) keep C2.
 *
 * <p>Those measurements were all at 4 ranks or fewer; at 8 ranks a state costs
 * far more (48 view images, 8 local states), and {@code merged_cp4tp2} (27,510 states) took 179.4
 * user CPU seconds under C1 (two workers) against 115.4 under C2 (one worker; two cost about 12 %
 * more CPU at 4 ranks), so models with more than {@link #C1_MAX_RANKS} ranks keep C2 whatever
 * their size (docs/explanation/spec-design.md, 1 Dec 2026).
 */
public final class JitChoice {

  /** Safety models recorded with at most this many distinct states run with C1 only. */
  static final long SAFETY_C1_MAX_DISTINCT = 30_000;
  /** Liveness models (more work per state) recorded with at most this many run with C1 only. */
  static final long LIVENESS_C1_MAX_DISTINCT = 10_000;
  /** Models with more ranks than this keep C2 (their states are expensive, see above). */
  static final int C1_MAX_RANKS = 4;
  /** The option that stops tiered compilation at C1. */
  static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

  private JitChoice() {}

  /**
   * The JVM options for this model's TLC: {@link #C1_ONLY} for a small recorded model, none
   * otherwise. The caller's own options go after these, so a caller's {@code
   * -XX:TieredStopAtLevel} wins (HotSpot takes the last occurrence).
   */
  public static List<String> optionsFor(ModelEntry model) {
    if (model.recorded() == null || model.recorded().distinct() <= 0) {
      return List.of();
    }
    if (model.topology() != null && model.topology().worldSize() > C1_MAX_RANKS) {
      return List.of();
    }
    long limit = model.hasLiveness() ? LIVENESS_C1_MAX_DISTINCT : SAFETY_C1_MAX_DISTINCT;
    return model.recorded().distinct() <= limit ? List.of(C1_ONLY) : List.of();
  }
}
