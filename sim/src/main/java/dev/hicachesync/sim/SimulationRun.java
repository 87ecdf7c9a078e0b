package dev.hicachesync.sim;

import dev.hicachesync.controller.CacheController;
import dev.hicachesync.sim.workload.Request;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.function.LongFunction;

/**
 * A simulation driven one lockstep point at a time (stateful tests), on the same engine as
 * {@link Simulator#run()}: the rank threads park at every sync point (after its collective and its
 * recorded digest) until {@link #advance()} releases them all to their next one, and then every sync
 * domain is compared ({@code DomainChecker}) before the call returns.
 *
 * <p>Between steps the caller may inspect each rank ({@link #view}) and drive the environment: inject a
 * request or an abort into a replica's next step, delay a rank (its copies complete and its prefetch
 * timeouts fire), complete its next background I/O, or fail its next storage read. Each command only
 * changes what a rank sees at a point of its own execution that the command sequence fixes (a step start,
 * its next read), so a run stays a pure function of the configuration and the commands.
 *
 * <p>Why no hang: a rank is parked only right after a collective all its peers also completed, so a
 * correct run never waits on a parked rank; a diverged one fails its collective (a mismatch, or the
 * fabric's timeout) and comes back from {@link #advance()} as a {@link Verdict} naming {@code
 * CollectiveMatching}. Not thread-safe: one driving thread. {@link #close()} ends every thread it started.
 */
public final class SimulationRun implements AutoCloseable {
  private final Simulator sim;
  private final SimConfig cfg;
  private final Topology topology;
  private final RankEngine[] engines;
  private final Thread[] threads;
  private final Semaphore[] go;
  /** One permit per rank that parked or ended since the last release. */
  private final Semaphore arrived = new Semaphore(0);
  /** Written by a rank thread before its last {@code arrived} permit; read by the driver after it. */
  private final boolean[] ended;
  private final Injections[] injections;
  private final LockstepChecks checks;
  private volatile boolean halting;
  private boolean closed;
  private long points;

  SimulationRun(Simulator sim) {
    this.sim = sim;
    this.cfg = sim.config();
    this.topology = cfg.topology();
    this.engines = sim.setUp();
    int world = engines.length;
    this.threads = new Thread[world];
    this.go = new Semaphore[world];
    this.ended = new boolean[world];
    this.injections = new Injections[topology.dp()];
    for (int d = 0; d < injections.length; d++) {
      injections[d] = new Injections();
    }
    this.checks = new LockstepChecks(topology, sim.recorders());
    for (RankEngine e : engines) {
      int r = e.rank();
      go[r] = new Semaphore(0);
      e.injections(injections[topology.coords(r).dp()]);
      e.recorder().gate(() -> park(r));
      threads[r] = Simulator.rankThread(e, () -> {
        try {
          sim.runRank(e);
        } finally {
          ended[r] = true;
          arrived.release();
        }
      });
    }
    for (Thread th : threads) {
      th.start();
    }
    arrived.acquireUninterruptibly(world); // every rank at its first lockstep point (RECV of step 0)
    check();
  }

  /** Thrown in a parked rank's thread by {@link #close()}, to unwind it. */
  static final class Halted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Halted() {
      super("step-by-step run closed", null, false, false);
    }
  }

  /**
   * The state of the checks after a call.
   *
   * @param points lockstep points advanced so far
   * @param step the lowest step a live rank is in
   * @param divergence the first divergence (the invariants it violates, root cause first), or null
   * @param crash a rank's failure that is no invariant (a bug in the simulator or controller), or null
   * @param ended whether every rank thread has ended (after a divergence or the configured steps)
   */
  public record Verdict(long points, long step, Divergence divergence, Throwable crash, boolean ended) {
    /** Returns whether every invariant held at every point so far and no rank crashed. */
    public boolean ok() {
      return divergence == null && crash == null;
    }

    /** Returns whether {@code i} held at every lockstep point so far. */
    public boolean holds(Invariant i) {
      return divergence == null || !divergence.invariants().contains(i);
    }
  }

  /**
   * One rank's state where it is parked.
   *
   * @param rank the global rank
   * @param step its step
   * @param point its last lockstep point ({@code sync point S4}, ...)
   * @param clock its virtual time
   * @param treeDigest its tree's digest, readable
   * @param queues ack queue lengths: write, load, revoke, backup, release
   * @param ongoingPrefetches prefetches in {@code ongoing_prefetch}
   * @param freeDevicePages free L1 pages
   * @param freeHostPages free L2 pages
   * @param pendingIo background operations not yet landed
   * @param ended whether its thread has ended
   */
  public record RankView(int rank, long step, String point, long clock, String treeDigest, List<Integer> queues,
      int ongoingPrefetches, int freeDevicePages, int freeHostPages, int pendingIo, boolean ended) {}

  /**
   * Releases every live rank to its next lockstep point, waits until each has parked there or ended, then
   * compares every sync domain. After a divergence or a crash nothing moves any more.
   */
  public Verdict advance() {
    requireOpen();
    if (!verdict().ok() || allEnded()) {
      return verdict();
    }
    int released = 0;
    for (int r = 0; r < engines.length; r++) {
      if (!ended[r]) {
        go[r].release();
        released++;
      }
    }
    // Bounded: a rank that waits for a peer fails at the fabric's timeout and then ends.
    arrived.acquireUninterruptibly(released);
    points++;
    check();
    return verdict();
  }

  /** Advances until every live rank has started its next step (is parked at its RECV), or the run stops. */
  public Verdict advanceStep() {
    long from = verdict().step();
    Verdict v = verdict();
    while (v.ok() && !v.ended() && v.step() <= from) {
      v = advance();
    }
    return v;
  }

  /** Returns the verdict so far. */
  public Verdict verdict() {
    long step = Long.MAX_VALUE;
    for (RankEngine e : engines) {
      if (!ended[e.rank()]) {
        step = Math.min(step, e.recorder().step());
      }
    }
    boolean all = allEnded();
    return new Verdict(points, all ? -1 : step, sim.first(), sim.crash(), all);
  }

  /** Returns rank {@code rank}'s state (its thread is parked or ended, so the read is consistent). */
  public RankView view(int rank) {
    requireOpen();
    RankEngine e = engines[rank];
    CacheController c = e.controller();
    List<Integer> q = new ArrayList<>();
    for (int n : c.view().queueSizes()) {
      q.add(n);
    }
    return new RankView(rank, e.recorder().step(), e.recorder().lastPoint(), e.env().now(), c.view().tree().digest().toString(),
        List.copyOf(q), c.view().ongoingPrefetches().size(), c.view().freeDevicePages(), c.view().freeHostPages(), e.env().pending(),
        ended[rank]);
  }

  /**
   * Returns rank {@code rank}'s replica of the request stream where it is parked: the id of its first waiting
   * request and of its first running one (null: none), and its tree, which the caller must only read (its
   * thread is parked or ended).
   */
  public Replica replica(int rank) {
    requireOpen();
    RankEngine e = engines[rank];
    Request w = e.firstWaiting();
    Request r = e.firstRunning();
    return new Replica(w == null ? null : w.rid(), r == null ? null : r.rid(), e.controller().view().tree());
  }

  /** A rank's request queue heads and its tree ({@link #replica}). */
  public record Replica(String waiting, String running, dev.hicachesync.tree.RadixTree tree) {}

  /**
   * A rank's runtime-attach state ({@code unified}; HiCacheUnified.tla's {@code storage[r]}, {@code env[r].half}
   * and the pending request of Knob {@code attach_retry}).
   *
   * @param storageEnabled {@code enable_storage}: a backend attached and enabled
   * @param halfAttached a failed attach left the controller attached with storage off
   * @param pending an attach request waits to be handled (retried at the next RECV)
   */
  public record AttachState(boolean storageEnabled, boolean halfAttached, boolean pending) {}

  /** Returns rank {@code rank}'s runtime-attach state where it is parked. */
  public AttachState attachState(int rank) {
    requireOpen();
    RankEngine e = engines[rank];
    return new AttachState(e.controller().view().storageEnabled(), e.controller().halfAttached(), e.attachPending());
  }

  /** Returns the run's statistics so far (requests, hits, copies, prefetches), as {@link Simulator#run()} reports them. */
  public SimStats stats() {
    long completed = Long.MAX_VALUE;
    for (RankEngine e : engines) {
      completed = Math.min(completed, e.stats().stepsRun());
    }
    return SimStats.of(sim.config(), topology, engines, completed);
  }

  /**
   * Returns why the ranks are not quiet (empty when they are): requests waiting or running, background
   * I/O pending, acks or prefetches left, pages leaked — the bounded liveness checks ({@code
   * PrefetchTerminates}, {@code AcksConsumed}, {@code RequestsProgress}) after a drain without arrivals.
   */
  public List<String> quiescence() {
    requireOpen();
    List<String> errors = new ArrayList<>();
    for (RankEngine e : engines) {
      for (String err : e.quiescenceErrors()) {
        errors.add("rank " + e.rank() + ": " + err);
      }
    }
    return errors;
  }

  /** Returns the world size. */
  public int ranks() {
    return engines.length;
  }

  /** Returns the first step no rank of replica {@code dp} has started: where an injected request arrives. */
  public long nextStep(int dp) {
    long max = -1;
    for (RankEngine e : engines) {
      if (topology.coords(e.rank()).dp() == dp) {
        max = Math.max(max, e.recorder().step());
      }
    }
    return max + 1;
  }

  /**
   * Makes a request arrive at every rank of replica {@code dp} at {@link #nextStep}; {@code request} builds
   * it for that step (its eligible and abort steps are absolute). Returns the step.
   */
  public long arrive(int dp, LongFunction<Request> request) {
    requireOpen();
    long step = nextStep(dp);
    injections[dp].arrive(step, request.apply(step));
    return step;
  }

  /** Aborts request {@code rid} of replica {@code dp} at {@link #nextStep} if it is still waiting then; returns the step. */
  public long abort(int dp, String rid) {
    requireOpen();
    long step = nextStep(dp);
    injections[dp].abort(step, rid);
    return step;
  }

  /** At the start of its next step, rank {@code rank}'s clock jumps {@code ticks} ahead (copies complete, prefetch timeouts fire). */
  public void delay(int rank, long ticks) {
    requireOpen();
    engines[rank].env().schedule(ticks, 0);
  }

  /** At the start of its next step, rank {@code rank}'s next pending background I/O (a storage read or write) lands. */
  public void completeNextIo(int rank) {
    requireOpen();
    engines[rank].env().schedule(0, 1);
  }

  /** The next storage read batch rank {@code rank} issues fails. */
  public void failNextRead(int rank) {
    requireOpen();
    engines[rank].env().failNextRead();
  }

  /** Unwinds every parked rank thread, waits for every thread this run started, and closes the data paths. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    halting = true;
    for (int r = 0; r < engines.length; r++) {
      if (!ended[r]) {
        go[r].release();
      }
    }
    long bound = cfg.collectiveTimeout().toMillis() * 2 + 1000;
    List<Thread> all = new ArrayList<>(List.of(threads));
    all.addAll(sim.helpers()); // poison's abort threads end by a mismatch or at the fabric's timeout
    for (Thread th : all) {
      try {
        th.join(bound);
        if (th.isAlive()) {
          th.interrupt();
          th.join(bound);
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    Simulator.closeData(engines);
    sim.deleteTempStores();
  }

  /** Returns how many threads this run started that are still alive (0 after {@link #close()}). */
  public int liveThreads() {
    int n = 0;
    for (Thread th : threads) {
      n += th.isAlive() ? 1 : 0;
    }
    for (Thread th : sim.helpers()) {
      n += th.isAlive() ? 1 : 0;
    }
    return n;
  }

  /** Rank thread: records that it parked and waits for the next release (or for {@link #close()}). */
  private void park(int rank) {
    arrived.release();
    go[rank].acquireUninterruptibly();
    if (halting) {
      throw new Halted();
    }
  }

  /** Compares every domain over the steps its members have recorded since the last complete one. */
  private void check() {
    Divergence x = checks.check();
    if (x != null) {
      sim.report(x);
    }
  }

  private boolean allEnded() {
    for (boolean e : ended) {
      if (!e) {
        return false;
      }
    }
    return true;
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the simulation run is closed");
    }
  }
}
