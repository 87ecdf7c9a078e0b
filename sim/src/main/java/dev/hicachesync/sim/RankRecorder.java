package dev.hicachesync.sim;

import dev.hicachesync.controller.CacheController;
import dev.hicachesync.controller.ControllerDigest;
import dev.hicachesync.sync.SyncObserver;
import dev.hicachesync.sync.SyncPoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Records one rank's digest at every lockstep point of the last few steps, in a ring, for the domain
 * leader to compare.
 *
 * <p>Written by the rank's thread; read by the leader only for a step that every member has finished
 * (the leader knows that once the next RECV collective has completed, which orders the writes before the
 * reads).
 */
final class RankRecorder implements SyncObserver {
  /** Steps kept: the leader compares step s-2 while members may be writing step s. */
  static final int RING = 4;
  /** Entry code of the end of a step. */
  static final int END = -1;
  /** Entry code of a canonical tree digest (in the tree slot). */
  static final int FULL = -2;
  /** Longs per entry: code, tree, acks, prefetch, alloc, then the five popped counts (for the report). */
  static final int WIDTH = 10;

  private final long[][] data = new long[RING][WIDTH * 16];
  private final int[] size = new int[RING];
  private final long[] stepOf = new long[RING];
  private CacheController controller;
  private int slot;
  /** A step whose every entry also records the readable state (a replay for the report), or -1. */
  private long viewStep = -1;
  /** The readable state at each entry of {@link #viewStep}, in entry order. */
  private final List<View> views = new ArrayList<>();
  /** Called after every sync point's entry: a {@link SimulationRun} parks the rank there; null in a run. */
  private Runnable gate;
  /** The step being recorded (-1 before the first). */
  private volatile long step = -1;
  /** Where every entry is also written ({@code --digest-log}), or null. */
  private DigestLog log;

  /** One rank's readable state at one entry: queues and pools, and the tree node by node. */
  record View(String state, List<String> tree) {}

  /** Records the readable state at every entry of {@code step} too (a replay for the report). */
  void viewStep(long step) {
    this.viewStep = step;
  }

  /** The readable state at each entry of the {@link #viewStep} step, in entry order (read-only). */
  List<View> views() {
    return java.util.Collections.unmodifiableList(views);
  }

  /** Sets what runs after every sync point's entry (a {@link SimulationRun} parks the rank there). */
  void gate(Runnable g) {
    this.gate = g;
  }

  /** Writes every entry to {@code digestLog} too ({@code --digest-log}). */
  void log(DigestLog digestLog) {
    this.log = digestLog;
  }

  /** Whether this rank's S5 is the completion-sync thread's (version {@code unified}), not the scheduler's. */
  boolean s5OnThread() {
    return controller != null
        && controller.view().version() == dev.hicachesync.sync.ProtocolVersion.UNIFIED;
  }

  /** The step being recorded (-1 before the first). Any thread. */
  long step() {
    return step;
  }

  void attach(CacheController c) {
    this.controller = c;
    Arrays.fill(stepOf, -1);
  }

  void begin(long step) {
    slot = (int) (step % RING);
    stepOf[slot] = -1; // invalid while being rewritten
    size[slot] = 0;
    stepOf[slot] = step;
    this.step = step;
  }

  @Override
  public void afterSync(SyncPoint point) {
    ControllerDigest d = controller.view().digest();
    add(point.ordinal(), d.tree(), d.acks(), d.prefetch(), d.alloc());
    if (gate != null) {
      gate.run();
    }
  }

  /** Returns the label of the last entry recorded, or {@code start}. */
  String lastPoint() {
    long s = step;
    if (s < 0) {
      return "start";
    }
    int k = (int) (s % RING);
    return size[k] == 0 ? "step start" : label(data[k][size[k] - WIDTH]);
  }

  void endStep() {
    ControllerDigest d = controller.view().digest();
    add(END, d.tree(), d.acks(), d.prefetch(), d.alloc());
  }

  void fullDigest(long treeDigest) {
    add(FULL, treeDigest, 0, 0, 0);
  }

  /** Returns the entries of {@code step}, or null if the ring no longer (or not yet) holds it. */
  long[] entries(long step) {
    int s = (int) (step % RING);
    if (stepOf[s] != step) {
      return null;
    }
    return Arrays.copyOf(data[s], size[s]);
  }

  /** Closes the digest log, if any (the rank's thread has ended). */
  void closeLog() {
    if (log != null) {
      log.close();
      log = null;
    }
  }

  static String label(long code) {
    if (code == END) {
      return "end of step";
    }
    if (code == FULL) {
      return "tree digest";
    }
    return "sync point " + SyncPoint.values()[(int) code];
  }

  private void add(long code, long tree, long acks, long prefetch, long alloc) {
    long[] d = data[slot];
    int n = size[slot];
    if (n + WIDTH > d.length) {
      d = data[slot] = Arrays.copyOf(d, d.length * 2);
    }
    d[n] = code;
    d[n + 1] = tree;
    d[n + 2] = acks;
    d[n + 3] = prefetch;
    d[n + 4] = alloc;
    if (controller != null) {
      long[] popped = controller.view().poppedCounts();
      System.arraycopy(popped, 0, d, n + 5, 5);
    }
    size[slot] = n + WIDTH;
    if (log != null) {
      log.write(stepOf[slot], code, tree, acks, prefetch, alloc);
    }
    if (stepOf[slot] == viewStep && controller != null) {
      views.add(new View(StopViews.queues(controller), controller.view().tree().describe()));
    }
  }
}
