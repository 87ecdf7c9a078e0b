package dev.hicachesync.sim;

import dev.hicachesync.sim.environment.Timing;
import dev.hicachesync.env.TransferKind;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A generated environment schedule of one rank, played through impl-b's {@link Timing} seam: a copy latency
 * and an I/O latency (this rank's skew), a cyclic jitter pattern added to each (so completion order differs
 * per rank and per transfer), every how many storage reads one fails, and every how many admission checks
 * the rank-local "batch full" condition holds. Shrinks toward zero latency, no jitter, no failures.
 *
 * @param copyBase ticks of every device↔host copy before jitter
 * @param ioBase ticks of every storage read/write before jitter
 * @param jitter added cyclically, one entry per transfer
 * @param failEvery every n-th storage read batch fails (0: none; never on later PP stages)
 * @param batchFullEvery every n-th admission check finds the batch full (0: never; only B10's fault reads it)
 */
record RankSchedule(int copyBase, int ioBase, List<Integer> jitter, int failEvery, int batchFullEvery) {

  /** Returns this schedule as a {@link Timing} (fresh counters). */
  Timing timing(double readFailure) {
    return new Timing() {
      private int copies;
      private int ios;
      private int reads;
      private int checks;

      @Override
      public long copyTicks(TransferKind kind, int pages) {
        return copyBase + jitter(copies++);
      }

      @Override
      public long backgroundTicks(TransferKind kind, int pages) {
        return (pages == 0 ? ioBase / 2 : 1 + ioBase) + jitter(ios++);
      }

      @Override
      public boolean readFails() {
        return readFailure > 0 && failEvery > 0 && ++reads % failEvery == 0;
      }

      @Override
      public boolean localBatchFull() {
        return batchFullEvery > 0 && ++checks % batchFullEvery == 0;
      }
    };
  }

  private int jitter(int i) {
    return jitter.isEmpty() ? 0 : jitter.get(i % jitter.size());
  }

  /** Returns the compact form, e.g. {@code 2:3:0:0:1-0-2}. */
  String encode() {
    return copyBase + ":" + ioBase + ":" + failEvery + ":" + batchFullEvery + ":"
        + jitter.stream().map(String::valueOf).collect(Collectors.joining("-"));
  }

  /** Parses {@link #encode()}'s form. */
  static RankSchedule decode(String s) {
    String[] f = s.split(":", -1);
    List<Integer> jitter = f[4].isEmpty() ? List.of()
        : Arrays.stream(f[4].split("-")).map(Integer::valueOf).toList();
    return new RankSchedule(Integer.parseInt(f[0]), Integer.parseInt(f[1]), jitter, Integer.parseInt(f[2]),
        Integer.parseInt(f[3]));
  }

  /** A factory giving rank r the r-th schedule (cycling if the world is larger). */
  static Timing.Factory factory(List<RankSchedule> schedules) {
    return (seed, rank, readFailure) -> schedules.get(rank % schedules.size()).timing(readFailure);
  }
}
