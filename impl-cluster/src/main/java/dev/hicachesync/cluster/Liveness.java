package dev.hicachesync.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;

/**
 * A {@link ClusterNode}'s fault handling for stopped peers: its beats to the world, when it last heard from each
 * rank, and the ranks it declares lost for their silence. A killed process closes its sockets and leaves the view
 * ({@link Membership}); a stopped one ({@code SIGSTOP}) keeps them open and is only found silent here.
 *
 * <p>Methods named {@code ...Locked} run with the node's lock held; {@link #start} and {@link #stop} without it.
 */
final class Liveness {
  private final ClusterConfig cfg;
  private final JChannel channel;
  private final ReentrantLock lock;
  private final Condition changed;
  private final Membership members;
  /** When this node last heard anything from each rank ({@link System#nanoTime}); set at join for all. */
  private final long[] lastHeard;
  /** Ranks declared lost for their silence (a subset of the lost ranks), for the error's wording. */
  private final TreeSet<Integer> silent = new TreeSet<>();
  private volatile ScheduledExecutorService beats;

  Liveness(ClusterConfig cfg, JChannel channel, ReentrantLock lock, Condition changed, Membership members) {
    this.cfg = cfg;
    this.channel = channel;
    this.lock = lock;
    this.changed = changed;
    this.members = members;
    this.lastHeard = new long[cfg.world()];
  }

  /** Starts this node's beats: one small message to the world per {@link #beatIntervalMillis}. */
  void start() {
    long now = System.nanoTime();
    lock.lock();
    try {
      Arrays.fill(lastHeard, now); // everyone said hello just now
    } finally {
      lock.unlock();
    }
    byte[] beat = Wire.beat(cfg.rank());
    beats = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "cluster-beat-" + cfg.rank());
      t.setDaemon(true);
      return t;
    });
    long every = beatIntervalMillis(cfg);
    beats.scheduleAtFixedRate(() -> {
      try {
        Message m = new BytesMessage(null, beat);
        m.setFlag(Message.Flag.OOB, Message.Flag.DONT_BUNDLE, Message.Flag.NO_RELIABILITY);
        channel.send(m);
      } catch (Exception e) {
        // closing: the peers see this node leave instead
      }
    }, every, every, TimeUnit.MILLISECONDS);
  }

  /** Stops the beats (closing). */
  void stop() {
    if (beats != null) {
      beats.shutdownNow();
    }
  }

  /** How often a node beats: a tenth of the collective timeout, between 50 and 500 ms. */
  static long beatIntervalMillis(ClusterConfig cfg) {
    return Math.max(50, Math.min(500, cfg.timeout().toMillis() / 10));
  }

  /**
   * How long a rank must have been silent (no beat, no message) to be lost rather than late: five beats, at least
   * two seconds (a loaded machine delays a beat; it does not stop five in a row).
   */
  static long silenceMillis(ClusterConfig cfg) {
    return Math.max(2_000, 5 * beatIntervalMillis(cfg));
  }

  /** Notes that a message from {@code rank} just arrived (any type: a beat, a call, a pipe message). */
  void heardLocked(int rank) {
    if (rank >= 0 && rank < cfg.world()) {
      lastHeard[rank] = System.nanoTime();
    }
  }

  /** A peer found {@code rank} silent past a timeout (its {@code LOST} message): this rank names it too. */
  void reportedSilentLocked(int rank) {
    if (rank >= 0 && rank < cfg.world() && rank != cfg.rank() && members.loseLocked(rank)) {
      silent.add(rank);
    }
  }

  /** Whether {@code rank} was declared lost for its silence (not seen leaving). */
  boolean silentLocked(int rank) {
    return silent.contains(rank);
  }

  /**
   * Past a collective's deadline: declares lost the {@code missing} members silent for {@link #silenceMillis}
   * (added to the lost ranks, every waiter woken, every peer told with a {@code LOST} message so that it names
   * them too) and returns them; empty when none is.
   */
  List<Integer> declareSilentLocked(List<Integer> missing) {
    long now = System.nanoTime();
    long silence = TimeUnit.MILLISECONDS.toNanos(silenceMillis(cfg));
    List<Integer> gone = new ArrayList<>();
    for (int r : missing) {
      if (now - lastHeard[r] >= silence && !members.lostLocked().contains(r)) {
        gone.add(r);
      }
    }
    for (int r : gone) {
      members.loseLocked(r);
      silent.add(r);
      sendLater(Wire.lost(cfg.rank(), r));
    }
    if (!gone.isEmpty()) {
      changed.signalAll();
    }
    return gone;
  }

  /**
   * When a waiter past its deadline stops waiting for members it still hears from: after {@link #silenceMillis}
   * and two beats more, a member stopped at the deadline is silent long enough to be named, and a member stopped
   * elsewhere is named by the peer that waits for it (its {@code LOST} message arrives here).
   */
  long aliveGraceNanos() {
    return TimeUnit.MILLISECONDS.toNanos(silenceMillis(cfg) + 2 * beatIntervalMillis(cfg));
  }

  /** When {@code rank} could next be found silent ({@link System#nanoTime}). */
  long silentAtLocked(int rank) {
    return lastHeard[rank] + TimeUnit.MILLISECONDS.toNanos(silenceMillis(cfg));
  }

  /** How long ago this node last heard from {@code rank}, in ms. */
  long silentForMillisLocked(int rank) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastHeard[rank]);
  }

  /** Sends {@code bytes} to the world from the beat thread (the caller holds the lock; a send may block). */
  private void sendLater(byte[] bytes) {
    ScheduledExecutorService b = beats;
    Runnable send = () -> {
      try {
        channel.send(new BytesMessage(null, bytes));
      } catch (Exception e) {
        // closing: nothing to tell
      }
    };
    if (b != null) {
      try {
        b.execute(send);
        return;
      } catch (RejectedExecutionException e) {
        return; // closed
      }
    }
    send.run();
  }
}
