package dev.hicachesync.collective;

import dev.hicachesync.testing.LincheckRuns;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;

/**
 * The operation catalogue for Lincheck checks of a collective rendezvous: every Lincheck thread
 * is one rank of one group and each {@link #allReduce} is that rank's next collective.
 *
 * <p>Why a scripted payload: a blocking rendezvous has no sequential specification in Lincheck's sense
 * (alone, the first caller would wait forever), and each result depends on what the <em>other</em>
 * members pass. So the k-th call of rank r passes {@link #value}(r, k), a pure function, and reduces with
 * {@link #op}(k), the same on every rank; the specification ({@link RendezvousSpec}) then knows the result
 * of generation k without waiting — the reduction of every rank's k-th value — and the check is exactly
 * the pairing rule of PROTOCOL.md §2 ("the k-th call of every member pairs with the k-th call of every
 * other member") plus INV-1 ({@code CollectiveMatching}) detection, under every interleaving the model
 * checker explores. Each thread must make the same number of calls (the generator's {@code actorsPerThread};
 * no init or post part), or the last generation would never complete.
 *
 * <p>Subclasses bind the catalogue to an implementation ({@link #call}) and a script of call sites.
 */
@Param(name = "thread", gen = ThreadIdGen.class)
public abstract class AbstractRendezvousLincheckTest {
  /** Calls made so far per rank; entry r is touched by rank r's thread only. */
  private final int[] calls;
  final int ranks;

  AbstractRendezvousLincheckTest(int ranks) {
    this.ranks = ranks;
    this.calls = new int[ranks];
  }

  /** Rank {@code rank}'s next all-reduce: returns the result, or the failure's kind and whether the group was broken before. */
  @Operation(params = {"thread"}, blocking = true)
  public String allReduce(int thread) {
    int rank = thread - 1; // ThreadIdGen numbers the parallel threads from 1
    int k = calls[rank]++;
    try {
      return Arrays.toString(call(rank, site(rank, k), op(k), value(rank, k)));
    } catch (CollectiveMismatchException e) {
      return e.getMessage().contains("broken earlier") ? "broken" : "mismatch";
    }
  }

  /**
   * Model checking of {@code ranks} threads × {@code calls} calls, against {@code spec}. One iteration:
   * with one operation whose only parameter is the thread, every generated scenario is the same, so the
   * budget goes to interleavings ({@code hicache.lincheck.invocations}). Scenario minimisation is
   * off: dropping calls from one thread only would turn any failure into a hang.
   */
  static ModelCheckingOptions modelChecking(int ranks, int calls, Class<?> spec) {
    return LincheckRuns.modelChecking(ranks, calls).iterations(1)
        .invocationsPerIteration(LincheckRuns.INVOCATIONS).actorsBefore(0).actorsAfter(0)
        .minimizeFailedScenario(false).sequentialSpecification(spec);
  }

  /** Stress counterpart of {@link #modelChecking}. */
  static StressOptions stress(int ranks, int calls, Class<?> spec) {
    return LincheckRuns.stress(ranks, calls).iterations(1)
        .invocationsPerIteration(LincheckRuns.INVOCATIONS).actorsBefore(0).actorsAfter(0)
        .minimizeFailedScenario(false).sequentialSpecification(spec);
  }

  /**
   * Returns one {@link LocalFabric} group's handles for ranks {@code 0..ranks-1}; the timeout is a day so
   * that it never fires (in model checking, time is not what orders the threads).
   */
  static ProcessGroup[] fabricHandles(int ranks) {
    LocalFabric fabric = new LocalFabric(Duration.ofDays(1));
    List<Integer> members = new ArrayList<>();
    for (int r = 0; r < ranks; r++) {
      members.add(r);
    }
    ProcessGroup[] handles = new ProcessGroup[ranks];
    for (int r = 0; r < ranks; r++) {
      handles[r] = fabric.group("sched", members, r);
    }
    return handles;
  }

  /** Runs one collective on the implementation under test. */
  abstract long[] call(int rank, String site, ReduceOp op, long[] values);

  /** The call site of rank {@code rank}'s k-th call (equal everywhere unless a subclass scripts a mismatch). */
  String site(int rank, int k) {
    return "S" + (1 + k % 3);
  }

  /** The reduction of generation {@code k}: the same on every rank. */
  static ReduceOp op(int k) {
    return k % 2 == 0 ? ReduceOp.MIN : ReduceOp.MAX;
  }

  /** Rank {@code rank}'s payload in generation {@code k}: distinct per rank, so a mispairing shows. */
  static long[] value(int rank, int k) {
    return new long[] {(rank * 5L + k * 3L) % 7, 10 - rank - 2L * k, rank == k ? 1 : 0};
  }
}
