package dev.hicachesync.api;

import dev.hicachesync.collective.ProcessGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Where one rank is in its step ({@link SchedulerCall}), and the stamp its scheduler's sync points carry so
 * that the other ranks of its domain see a skipped call where they meet it ({@link OrderStampedGroup}).
 *
 * <p>A call the step order does not allow next means a required call was skipped: the event check (a call
 * after it came first, or the next step began), or the step's first call (a call the step already passed came
 * again: a new step began without it). The rank then fails ({@link #enter} returns the exception), and its
 * stamp names the skipped call and its step until the rank's next sync point has shown it to the others.
 * The stamp also carries the rank's step: ranks that meet at a sync point in different steps (an abort's S6,
 * an admission's S4 made a step later on one rank) all fail there, naming each rank's step.
 *
 * <p>Stamp: {@code step * CODES + code}, code 0 or the skipped call's ordinal + 1 (+ {@link #PREVIOUS} when
 * it belongs to the step before). Scheduler thread only.
 */
final class CallOrder {
  static final long CODES = 64;
  /** In a stamp's code: the skipped call belongs to the step before the stamp's. */
  private static final int PREVIOUS = 32;
  private static final int EVENTS = SchedulerCall.CHECK_HICACHE_EVENTS.position();
  private static final int LAST = SchedulerCall.values()[SchedulerCall.values().length - 1].position();

  private final int rank;
  /** Steps begun; the first {@code runPrefetchThread} begins step 1. */
  private long step;
  /** Position of the step's last call; a fresh rank is at the end of step 0. */
  private int position = LAST;
  /** The skipped call being shown to the others, or null. */
  private SchedulerCall skipped;
  /** Whether the skipped call belongs to the step before this rank's current one. */
  private boolean skippedInPrevious;
  /** Once set, every call fails with it: the rank is unusable. */
  private CallOrderException failure;

  CallOrder(int rank) {
    this.rank = rank;
  }

  /** Records {@code call}; returns null when the order allows it, else the rank's failure (also kept). */
  CallOrderException enter(SchedulerCall call) {
    if (failure != null) {
      throw failure;
    }
    if (call.phase() == StepOrder.FINISH && position < EVENTS) {
      // The previous batch's result processed after this step's RECV (StepOrder.Finish.AFTER_NEXT_RECV): the
      // step's position stays where it is, its arrivals and event check still to come.
      return null;
    }
    int p = call.position();
    String why = null;
    if (call == SchedulerCall.RUN_PREFETCH_THREAD) {
      step++;
      if (step > 1 && position < EVENTS) {
        skip(SchedulerCall.CHECK_HICACHE_EVENTS, true);
        why = "expected checkHicacheEvents (step " + (step - 1) + " made none)";
      }
    } else if (p > position || p == position && !call.required()) {
      if (position < EVENTS && p > EVENTS) {
        skip(SchedulerCall.CHECK_HICACHE_EVENTS, false);
        why = "expected checkHicacheEvents before it (once per step, after the arrivals, before admission)";
      }
    } else { // the step is past this call: the next one began without its first call
      String past = position == LAST ? "admission" : SchedulerCall.requiredAt(position) != null
          ? SchedulerCall.requiredAt(position).method() : "the arrivals";
      step++;
      skip(SchedulerCall.RUN_PREFETCH_THREAD, false);
      why = "expected runPrefetchThread (a step begins with it" + (step == 1 ? ")"
          : "; step " + (step - 1) + " is past " + past + ")");
    }
    position = p;
    if (why == null) {
      return null;
    }
    failure = new CallOrderException("rank " + rank + ", step " + step + ": " + call.method() + " out of order: " + why);
    return failure;
  }

  /** The required call this rank skipped, while its stamp shows it; else null. */
  SchedulerCall skipped() {
    return skipped;
  }

  private void skip(SchedulerCall call, boolean previousStep) {
    skipped = call;
    skippedInPrevious = previousStep;
  }

  /** This rank's stamp for its next sync point. */
  long stamp() {
    return step * CODES + (skipped == null ? 0 : skipped.ordinal() + 1 + (skippedInPrevious ? PREVIOUS : 0));
  }

  /**
   * Checks the members' stamps, {@code result[from ..]} in member order, after a sync point: fails this rank
   * naming every rank that skipped a call, or that is behind, when they differ or show a skip.
   */
  void check(String site, ProcessGroup g, long[] result, int from) {
    long mine = result[from];
    boolean same = true;
    for (int i = from; i < result.length; i++) {
      same &= result[i] == mine;
    }
    if (same && mine % CODES == 0) {
      return;
    }
    List<Integer> members = g.members();
    List<String> why = new ArrayList<>();
    TreeMap<Long, List<Integer>> bySteps = new TreeMap<>();
    for (int i = 0; i < members.size(); i++) {
      long s = result[from + i];
      int code = (int) (s % CODES);
      if (code != 0) {
        SchedulerCall c = SchedulerCall.values()[(code & (PREVIOUS - 1)) - 1];
        why.add("rank " + members.get(i) + " skipped " + c.method() + " in step "
            + (s / CODES - ((code & PREVIOUS) != 0 ? 1 : 0)));
      } else {
        bySteps.computeIfAbsent(s / CODES, k -> new ArrayList<>()).add(members.get(i));
      }
    }
    if (why.isEmpty() && bySteps.size() > 1) {
      List<String> at = new ArrayList<>();
      bySteps.forEach((st, ranks) -> at.add("ranks " + ranks + " in step " + st));
      why.add(String.join(", ", at) + ": they reached it in different steps (a call made in another step"
          + " than the others made it)");
    }
    failure = new CallOrderException("call order: " + String.join("; ", why) + "; seen by rank " + rank
        + " at sync point " + site + " on " + g.name() + " " + members);
    skipped = null;
    throw failure;
  }
}
