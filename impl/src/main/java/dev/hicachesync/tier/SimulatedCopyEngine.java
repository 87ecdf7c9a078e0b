package dev.hicachesync.tier;

import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * The simulated tier's copy engine as a thread of its own: a real asynchronous completion source, as a
 * GPU's copy engine and its CUDA events are. It completes each copy (moves its bytes, marks it done) once
 * the tier's clock reaches the copy's ready tick, without anyone polling, and then tells a listener (the
 * way SGLang's scheduler learns of finished transfers).
 *
 * <p>Determinism: what any observer sees still depends on the clock only. {@link SimulatedCopy#isDone()}
 * answers {@code ticks >= readyAt} and, if the engine has not got there yet, completes the copy itself,
 * under the copy's lock, exactly once; so a seed gives the same answers at the same ticks whether this
 * thread runs or not, and only <em>which</em> thread moved the bytes differs (rule 3 of {@link DeviceTier}
 * allows either instant). The engine takes copies earliest ready tick first (issue order among equals).
 *
 * <p>Concurrency contract: a multi-producer / single-consumer hand-off. <b>Producers</b>: the issuing
 * thread ({@link #submit}, the scheduler). <b>Consumer</b>: this engine's own thread, the only one that
 * takes from the queue. The queue is guarded by this object's monitor; the copies publish their result
 * through their own lock and {@code volatile} flag ({@link SimulatedCopy}).
 */
final class SimulatedCopyEngine implements AutoCloseable {
  private final Ticker ticker;
  private final Consumer<TransferEvent> onComplete;
  /** Pending copies, earliest ready tick first, issue order among equals. Guarded by this. */
  private final PriorityQueue<Pending> pending = new PriorityQueue<>();
  private final Thread thread;
  /** Guarded by this. */
  private long issued;
  /** Guarded by this. */
  private boolean closed;

  private record Pending(SimulatedCopy copy, long seq) implements Comparable<Pending> {
    @Override
    public int compareTo(Pending o) {
      int c = Long.compare(copy.readyAt(), o.copy.readyAt());
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  /** Starts the engine thread, named {@code name}; {@code onComplete} runs on it after each completion. */
  SimulatedCopyEngine(Ticker ticker, Consumer<TransferEvent> onComplete, String name) {
    this.ticker = ticker;
    this.onComplete = onComplete;
    this.thread = new Thread(this::run, name);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Hands {@code copy} to the engine. The issuing thread. */
  synchronized void submit(SimulatedCopy copy) {
    if (closed) {
      throw new IllegalStateException("copy engine closed");
    }
    pending.add(new Pending(copy, issued++));
    notifyAll();
  }

  private void run() {
    try {
      while (true) {
        SimulatedCopy head;
        synchronized (this) {
          while (pending.isEmpty() && !closed) {
            wait();
          }
          if (closed) {
            return;
          }
          head = pending.peek().copy();
          if (ticker.ticks() >= head.readyAt()) {
            pending.poll(); // only this thread takes from the queue
          } else {
            head = null;
          }
        }
        if (head == null) {
          // Outside the lock, so submitters never wait for the clock; then look at the head again (a
          // copy submitted meanwhile may be due earlier).
          ticker.awaitTicks(peekReadyAt());
          continue;
        }
        head.isDone(); // ticks >= readyAt: completes the copy here unless an observer already did
        onComplete.accept(head);
      }
    } catch (InterruptedException e) {
      // close(): pending copies stay completable by their observers
    }
  }

  private synchronized long peekReadyAt() {
    return pending.isEmpty() ? Long.MIN_VALUE : pending.peek().copy().readyAt();
  }

  /** Returns the copies handed over and not yet completed by the engine. */
  synchronized int pending() {
    return pending.size();
  }

  /** Stops the thread and waits for it; pending copies still complete when observed. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
