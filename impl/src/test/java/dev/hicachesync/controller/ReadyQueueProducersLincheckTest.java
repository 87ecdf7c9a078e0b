package dev.hicachesync.controller;

import dev.hicachesync.testing.LincheckRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ReadyQueue} with its producers running too: the prefetch thread appends S7 outcomes while readiers
 * mark entries ready and the scheduler counts and pops (S3), all on the production class with no lock of
 * the test's. The entry handles reach the readiers through an {@link AtomicReferenceArray} (in production
 * through the prefetch operation's fields), so a readier may only mark an entry already appended. Checked
 * against {@link Spec}.
 *
 * <p>What it cannot see: with one appender and one popper and no resize, an {@code ArrayDeque} without the
 * monitor is linearizable under sequential consistency (it behaves as a single-producer single-consumer
 * ring), so a mutant that drops {@code ReadyQueue}'s {@code synchronized} passes here (tried: it does).
 * The monitor is there for the Java memory model (publication of the appended entry and of the deque's
 * indices), which Lincheck does not model; see {@link ReadyQueue}'s javadoc.
 */
@Tag("lincheck")
@Param(name = "entry", gen = IntGen.class, conf = "0:2")
public class ReadyQueueProducersLincheckTest {
  private static final int MAX = 8;
  private final ReadyQueue<Integer> queue = new ReadyQueue<>();
  private final AtomicReferenceArray<ReadyQueue.Entry<Integer>> handles = new AtomicReferenceArray<>(MAX);
  /** Appended so far; the prefetch thread's own counter (one appending thread). */
  private int appended;

  /** The prefetch thread appends the next S7 outcome, not yet ready. */
  @Operation(nonParallelGroup = "prefetch")
  public void append() {
    int id = appended++;
    handles.set(id, queue.add(id));
  }

  /** Some thread finishes entry {@code i}'s work; false if it has not been appended yet. */
  @Operation(params = {"entry"})
  public boolean markReady(int i) {
    ReadyQueue.Entry<Integer> e = handles.get(i);
    if (e == null) {
      return false;
    }
    e.markReady();
    return true;
  }

  /** S3: the scheduler pops the leading ready entries. */
  @Operation(nonParallelGroup = "scheduler")
  public String popLeading() {
    int n = queue.leadingReady();
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      out.add(queue.poll());
    }
    return out.toString();
  }

  @Test
  void modelCheckingTest() {
    LincheckRuns.modelChecking(3, 3, Spec.class).check(getClass());
  }

  @Test
  void stressTest() {
    LincheckRuns.stress(3, 3, Spec.class).check(getClass());
  }

  /** Sequential model: entries numbered in append order, a ready flag each, and a head. */
  public static class Spec {
    private final boolean[] ready = new boolean[MAX];
    private int appended;
    private int head;

    public void append() {
      appended++;
    }

    public boolean markReady(int i) {
      if (i >= appended) {
        return false;
      }
      ready[i] = true;
      return true;
    }

    public String popLeading() {
      List<Integer> out = new ArrayList<>();
      while (head < appended && ready[head]) {
        out.add(head++);
      }
      return out.toString();
    }
  }
}
