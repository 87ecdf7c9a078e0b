package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.posted;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a {@code HiCacheReplicas.tla} counterexample schedules per rank: the environment's events, each at the
 * step whose actions first see it. A rank's step is the number of its domain's RECVs completed before it (what a
 * rank does after its k-th RECV, from 0, belongs to step k); the spec's environment acts only at a step boundary
 * ({@code EnvWindow}: the domain posted on RECV, or idle), so an event there is seen by the step whose RECV comes
 * next.
 *
 * <ul>
 *   <li>{@code WriteEventCompletes(r)}: the GPU event of rank r's oldest write-through completes (in order);
 *   <li>{@code StorageWriteCompletes(r)}: rank r's backup thread writes its CP shard of key k to storage.
 * </ul>
 * What the trace leaves pending completes right after it ({@link #afterTrace}). The rest is the collectives' completion ({@code SomeCollectiveCompletes}), whose order the implementation's
 * fabric decides as the spec's does: a collective completes once every member called it.
 */
final class ReplicasSchedule {

  /** The actions whose choices this schedule maps (the collectives need no seam). */
  static final Set<String> DRIVEN = Set.of(TraceState.INITIAL, "SomeCollectiveCompletes", "WriteEventCompletes",
      "StorageWriteCompletes", "Terminated");

  private final int ranks;
  private final int[] recvs;
  private final List<List<Integer>> writesDone = new ArrayList<>();
  private final List<Map<Long, Integer>> storageWrites = new ArrayList<>();
  private final Set<String> undriven = new LinkedHashSet<>();

  private ReplicasSchedule(ErrorTrace trace, int ranks) {
    this.ranks = ranks;
    this.recvs = new int[ranks];
    for (int r = 0; r < ranks; r++) {
      writesDone.add(new ArrayList<>());
      storageWrites.add(new HashMap<>());
    }
    TraceState before = null;
    for (TraceState now : trace.states()) {
      if (!DRIVEN.contains(now.action())) {
        undriven.add(now.action());
      }
      if (before != null) {
        for (int r = 0; r < ranks; r++) {
          TlaValue.Rec was = posted(before, r, "sched");
          if (was != null && was.fields().get("site") instanceof TlaValue.Str site && site.value().equals("RECV")
              && !was.equals(posted(now, r, "sched"))) {
            recvs[r]++;
          }
          TlaValue a = rank(before, "ls", r);
          TlaValue b = rank(now, "ls", r);
          if (now.action().equals("WriteEventCompletes") && number(field(b, "wd")) > number(field(a, "wd"))) {
            writesDone.get(r).add(recvs[r]);
          }
          if (now.action().equals("StorageWriteCompletes")) {
            List<TlaValue> left = elements(field(b, "sbq"));
            for (TlaValue k : elements(field(a, "sbq"))) {
              if (!left.contains(k)) {
                storageWrites.get(r).put(number(k), recvs[r]);
              }
            }
          }
        }
      }
      before = now;
    }
  }

  /** Reads {@code trace}, a counterexample of a HiCacheReplicas model with {@code ranks} ranks. */
  static ReplicasSchedule of(ErrorTrace trace, int ranks) {
    return new ReplicasSchedule(trace, ranks);
  }

  /**
   * The step whose S1 first sees rank {@code rank}'s {@code n}-th write-through done; one the trace does not
   * complete completes right after it (the environment is fair: a GPU event completes).
   */
  int writeDone(int rank, int n) {
    List<Integer> d = writesDone.get(rank);
    return n < d.size() ? d.get(n) : afterTrace();
  }

  /** The step at whose start rank {@code rank}'s storage write of {@code key} lands; after the trace if not in it. */
  int storageWrite(int rank, long key) {
    return storageWrites.get(rank).getOrDefault(key, afterTrace());
  }

  /** The first step after the trace's last: the environment completes there what the trace left pending. */
  int afterTrace() {
    return lastStep() + 2;
  }

  /** The step of the trace's last state: the most RECVs any rank's domain completed, minus one (-1: start-up). */
  int lastStep() {
    int most = 0;
    for (int n : recvs) {
      most = Math.max(most, n);
    }
    return most - 1;
  }

  /** Actions of the trace this replay has no seam for. */
  Set<String> undriven() {
    return undriven;
  }

  /** One line per rank with events: what the replay makes the environment do. */
  List<String> describe() {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      if (!writesDone.get(r).isEmpty()) {
        out.add("schedule rank " + r + " write-through events done by the S1 of steps " + writesDone.get(r));
      }
      if (!storageWrites.get(r).isEmpty()) {
        out.add("schedule rank " + r + " storage writes (key=step they land) " + new java.util.TreeMap<>(
            storageWrites.get(r)));
      }
    }
    return out;
  }
}
