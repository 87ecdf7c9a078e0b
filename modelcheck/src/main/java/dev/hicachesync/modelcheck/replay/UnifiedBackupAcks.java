package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;
import static dev.hicachesync.modelcheck.replay.TraceReads.rank;

import dev.hicachesync.modelcheck.trace.TraceState;
import dev.hicachesync.modelcheck.value.TlaValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The backup threads' acks of a {@code HiCacheUnified.tla} counterexample ({@code BackupOk}: {@code q[r].bka}
 * grows), read beside {@link UnifiedSchedule}'s other choices: each lands at the start of the step after the last
 * RECV, where the implementation's backup thread's write lands ({@code Timing#backgroundTicks} of a storage
 * write). One acked after RECV and before the rank's own S123 is not mapped: the implementation would land it
 * before that RECV.
 */
final class UnifiedBackupAcks {
  /** Per rank, the step at whose start each of its backups is acked, in order. */
  private final List<List<Integer>> lands = new ArrayList<>();

  UnifiedBackupAcks(int ranks) {
    for (int r = 0; r < ranks; r++) {
      lands.add(new ArrayList<>());
    }
  }

  /**
   * Reads the step {@code before} to {@code now}, after {@code recvs} completed RECVs (step {@code step}); adds to
   * {@code unmapped} an ack the implementation cannot place.
   */
  void read(TraceState before, TraceState now, int recvs, int step, List<String> unmapped) {
    for (int r = 0; r < lands.size(); r++) {
      if (number(field(rank(now, "q", r), "bka")) > number(field(rank(before, "q", r), "bka"))) {
        String pc = rank(before, "pc", r) instanceof TlaValue.Str p ? p.value() : "";
        if (recvs > 0 && (pc.equals("abort") || pc.equals("events"))) { // after RECV, before its S123
          unmapped.add("rank " + r + "'s backup acked after RECV, before its S123, in step " + step + ": the"
              + " implementation's backup lands at a step's start, before RECV");
        }
        lands.get(r).add(recvs);
      }
    }
  }

  /** The step at whose start rank {@code rank}'s {@code n}-th backup is acked, or {@link Integer#MAX_VALUE}. */
  int lands(int rank, int n) {
    List<Integer> b = lands.get(rank);
    return n < b.size() ? b.get(n) : Integer.MAX_VALUE;
  }

  /** The line describing rank {@code rank}'s acks, or null when it has none. */
  String describe(int rank) {
    return lands.get(rank).isEmpty() ? null
        : "schedule rank " + rank + " backup thread acks its backups at the start of steps " + lands.get(rank);
  }
}
