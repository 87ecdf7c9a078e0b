package dev.hicachesync.modelcheck;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * Resident TLC JVMs ({@link ResidentTlc}) that a {@link TlcRunner} reuses for the next run with the same JVM options,
 * so that a run of many small catalogue models pays a TLC JVM's start once per JVM rather than once per model. A run
 * that a resident JVM finishes gives the same output, verdict, counts and counterexample as a run in a JVM of its own
 * ({@link TlcMain}); {@code ResidentTlcTest} compares them. At most {@code capacity} JVMs live at once, running or
 * idle (one per job running side by side, as many as a JVM per model would have): a run that needs other JVM options
 * than the idle ones have closes the longest idle one first. Closing the pool lets the idle ones exit.
 */
public final class TlcJvmPool implements AutoCloseable {

  /** Starts a resident JVM for the pool. */
  interface Starter {
    ResidentTlc start() throws IOException;
  }

  private final int capacity;
  private final Deque<ResidentTlc> idle = new ArrayDeque<>();
  private int live;
  private boolean closed;

  /** A pool of at most {@code capacity} live JVMs. */
  public TlcJvmPool(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("a TLC JVM pool holds at least one JVM (got " + capacity + ")");
    }
    this.capacity = capacity;
  }

  /** An idle JVM started with {@code options}, taken out of the pool, else a new one from {@code starter}. */
  ResidentTlc take(List<String> options, Starter starter) throws IOException {
    List<ResidentTlc> leaving = new ArrayList<>();
    try {
      synchronized (this) {
        for (Iterator<ResidentTlc> it = idle.iterator(); it.hasNext(); ) {
          ResidentTlc jvm = it.next();
          if (!jvm.alive()) {
            it.remove();
            leaving.add(jvm);
            live--;
          } else if (jvm.options().equals(options)) {
            it.remove();
            return jvm;
          }
        }
        if (live >= capacity && !idle.isEmpty()) {
          leaving.add(idle.removeLast());
          live--;
        }
        live++;
      }
    } finally {
      leaving.forEach(ResidentTlc::close);
    }
    try {
      return starter.start();
    } catch (IOException | RuntimeException e) {
      synchronized (this) {
        live--;
      }
      throw e;
    }
  }

  /** Puts back a JVM whose run ended normally (after {@link #close}: closes it). */
  void give(ResidentTlc jvm) {
    synchronized (this) {
      if (!closed) {
        idle.addFirst(jvm);
        return;
      }
      live--;
    }
    jvm.close();
  }

  /** Stops a JVM whose run did not end normally (a time limit, an interrupt, TLC ending the JVM). */
  void discard(ResidentTlc jvm) {
    jvm.kill();
    synchronized (this) {
      live--;
    }
  }

  /** Lets every idle JVM exit; a JVM given back later is closed at once. */
  @Override
  public void close() {
    List<ResidentTlc> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(idle);
      live -= idle.size();
      idle.clear();
    }
    all.forEach(ResidentTlc::close);
  }
}
