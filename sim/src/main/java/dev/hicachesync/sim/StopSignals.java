package dev.hicachesync.sim;

import dev.hicachesync.collective.CollectiveException;
import dev.hicachesync.collective.ProcessGroup;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.InvariantViolation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How one rank's stop reaches the whole run: the first divergence any rank or checker reports, a crash that
 * is no invariant, the collective errors of the peers a crash stopped, and the abort threads that free
 * peers waiting in a collective. A class of its own because both ways of running ranks ({@link
 * Simulator#run()} and the step-by-step {@link SimulationRun}) share these rules, and they are the part that
 * must stop every rank together without a hang.
 *
 * <p>Thread-safe: rank threads report here concurrently.
 */
final class StopSignals {
  private final AtomicReference<Divergence> first = new AtomicReference<>();
  private final AtomicReference<Throwable> crash = new AtomicReference<>();
  /** The collective errors of the peers of a rank that crashed (each names the rank it happened on). */
  private final List<String> peerErrors = Collections.synchronizedList(new ArrayList<>());
  /** The abort threads {@link #poison} started, for {@link SimulationRun#close} to join. */
  private final List<Thread> helpers = Collections.synchronizedList(new ArrayList<>());

  boolean stopped() {
    return first.get() != null || crash.get() != null;
  }

  void report(Divergence d) {
    first.compareAndSet(null, d);
  }

  Divergence first() {
    return first.get();
  }

  Throwable crash() {
    return crash.get();
  }

  /** Returns the abort threads started so far (a copy). */
  List<Thread> helpers() {
    synchronized (helpers) {
      return new ArrayList<>(helpers);
    }
  }

  /** Returns the error a run that crashed on {@code seed} ends with, naming a peer's collective error. */
  IllegalStateException crashError(long seed) {
    String peers;
    synchronized (peerErrors) {
      peers = peerErrors.isEmpty() ? "" : "; " + peerErrors.size() + " peer(s) stopped by the collective error, "
          + peerErrors.stream().sorted().findFirst().orElse("").lines().findFirst().orElse("");
    }
    return new IllegalStateException("simulation failed on seed " + seed + ": " + crash.get() + peers, crash.get());
  }

  /** Runs {@code e}'s first {@code steps} steps on the calling thread, turning how it stops into a signal. */
  void runRank(RankEngine e, long steps) {
    try {
      for (long s = 0; s < steps; s++) {
        if (!e.step(s)) {
          return;
        }
      }
    } catch (SimulationRun.Halted ex) {
      // a step-by-step run was closed while this rank was parked
    } catch (CollectiveException ex) {
      if (crash.get() != null) { // a peer that failed on its own told this rank so through the ABORT call
        String m = String.valueOf(ex.getMessage());
        peerErrors.add(m.startsWith("rank " + e.rank() + ":") ? m : "rank " + e.rank() + ": " + m);
      }
      report(new Divergence(e.stats().stepsRun(), e.where(), List.of(Invariant.CollectiveMatching), e.rank(), -1,
          ex.getMessage(), ""));
    } catch (InvariantViolation ex) {
      report(new Divergence(e.stats().stepsRun(), e.where(), List.of(ex.invariant()), e.rank(), -1,
          ex.getMessage(), ""));
      poison(e);
    } catch (RuntimeException | Error ex) {
      if (!stopped()) {
        crash.compareAndSet(null, ex);
      }
      poison(e);
    }
  }

  /**
   * Frees the peers of a rank that stopped on its own (a local violation or a crash) without waiting for
   * the fabric's timeout: an {@code ABORT} call on each of its groups mismatches whatever call the peers
   * wait in (or make next), and a poison message tells the next pipeline stage. The helper threads are
   * daemons; those whose group nobody reaches again end at the timeout, unobserved.
   */
  private void poison(RankEngine e) {
    for (ProcessGroup g : e.handles()) {
      if (g.size() > 1) {
        Thread th = new Thread(() -> {
          try {
            g.barrier("ABORT");
          } catch (RuntimeException ignored) {
            // the mismatch this call exists to cause, or the timeout of a group nobody uses any more
          }
        }, "abort-" + e.rank() + "-" + g.name());
        th.setDaemon(true);
        helpers.add(th);
        th.start();
      }
    }
    if (e.toNext() != null) {
      e.toNext().send(new long[] {-1});
    }
  }
}
