package dev.hicachesync.controller;

import java.util.ArrayDeque;

/**
 * One of a rank's controller threads (prefetch, prefetch I/O, backup, copy completion): a named thread
 * that runs the tasks handed to it one at a time, in hand-off order.
 *
 * <p>Concurrency contract: a multi-producer / single-consumer hand-off. <b>Producers</b>: any thread
 * (the scheduler hands a prefetch pass or a background transfer over; an I/O task hands on its next batch).
 * <b>Consumer</b>: this worker's own thread, the only one that runs tasks. The task deque, the
 * per-task "done" flags and the first failure are guarded by this object's monitor, so a task's effects
 * happen-before {@link #runAndAwait} returns and before {@link #idle()} answers true.
 *
 * <p>Two ways to hand over, one per thread mode: {@link #runAndAwait} (stepped: the caller waits for the
 * hand-back, so the caller's timing, not the thread's, decides when the result is visible; a seeded run
 * stays a pure function of its seed) and {@link #submit} (free-running: the caller goes on at once; a
 * failure is kept and rethrown by {@link #rethrowFailure} on the scheduler's next call).
 */
final class HandOffWorker implements AutoCloseable {
  private final Thread thread;
  /** Guarded by this. */
  private final ArrayDeque<Task> tasks = new ArrayDeque<>();
  /** Guarded by this: a task is running (taken from {@link #tasks}, not yet done). */
  private boolean running;
  /** Guarded by this. */
  private boolean closed;
  /** Guarded by this: the first failure of a {@link #submit}ted task, until rethrown. */
  private Throwable failure;
  /** Told after every task, outside this monitor (a waiter's condition may depend on what the task did). */
  private final Runnable afterTask;

  /**
   * Yields of a stepped caller before it blocks: a task is typically a few microseconds of work, so the
   * caller first gives its core to the worker a few times and usually finds the task done without the
   * futex sleep and wake-up of the way back. Measured on the shared 2-core machine (load 50,
   * {@code simulate --cp 2 --tp 2 --steps 15000}, two runs each, 30 Nov 2026): busy-spinning 2,000 {@code
   * onSpinWait}s took 1.1-2.3x the wall time of blocking at once (the spinner starves the worker of the
   * core), 50 yields 0.93-0.99x of it.
   */
  private static final int YIELDS = 50;

  /** One handed-over task; written under the worker's monitor, {@code done} also read by a spinning caller. */
  private static final class Task {
    private final Runnable work;
    private final boolean awaited;
    private volatile boolean done;
    private Throwable thrown;

    Task(Runnable work, boolean awaited) {
      this.work = work;
      this.awaited = awaited;
    }
  }

  /** Starts the worker thread, named {@code name} (a daemon: an engine that forgets close() still exits). */
  HandOffWorker(String name, Runnable afterTask) {
    this.afterTask = afterTask;
    this.thread = new Thread(this::loop, name);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Hands {@code work} over and returns at once (free-running). Any thread. */
  void submit(Runnable work) {
    enqueue(new Task(work, false));
  }

  /**
   * Hands {@code work} over and waits until the worker has run it (stepped); rethrows what it threw (the
   * same exception, so a collective's failure reads as it would on the caller's thread). Waits through
   * interrupts, as a collective does, and restores the flag: leaving early would let the caller run on
   * while the worker still changes the controller. Called on the worker itself it runs {@code work} inline.
   */
  void runAndAwait(Runnable work) {
    if (Thread.currentThread() == thread) {
      work.run();
      return;
    }
    Task t = new Task(work, true);
    enqueue(t);
    for (int i = 0; i < YIELDS && !t.done; i++) {
      Thread.yield();
    }
    boolean interrupted = false;
    Throwable thrown;
    synchronized (this) {
      while (!t.done) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      thrown = t.thrown;
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (thrown instanceof RuntimeException re) {
      throw re;
    }
    if (thrown instanceof Error err) {
      throw err;
    }
  }

  private synchronized void enqueue(Task t) {
    if (closed) {
      if (!t.awaited) {
        return; // a task handing on its next batch while the rank shuts down: nobody waits for it any more
      }
      throw new IllegalStateException(thread.getName() + " is closed");
    }
    tasks.add(t);
    notifyAll();
  }

  /** Returns whether nothing is queued or running here. Any thread. */
  synchronized boolean idle() {
    return tasks.isEmpty() && !running;
  }

  /** Returns the tasks queued or running. Any thread. */
  synchronized int pending() {
    return tasks.size() + (running ? 1 : 0);
  }

  /** Throws the first failure of a submitted task as an {@link IllegalStateException}, once. Any thread. */
  void rethrowFailure() {
    Throwable f;
    synchronized (this) {
      f = failure;
      failure = null;
    }
    if (f != null) {
      throw new IllegalStateException(thread.getName() + " failed: " + f, f);
    }
  }

  private void loop() {
    while (true) {
      Task t;
      synchronized (this) {
        while (tasks.isEmpty() && !closed) {
          try {
            wait();
          } catch (InterruptedException e) {
            // close() interrupts a task that blocks; an idle worker just looks at closed again
          }
        }
        if (tasks.isEmpty()) {
          return; // closed and drained
        }
        t = tasks.poll(); // only this thread takes from the deque
        running = true;
      }
      Throwable thrown = null;
      try {
        t.work.run();
      } catch (Throwable e) {
        thrown = e;
      }
      synchronized (this) {
        running = false;
        t.done = true;
        t.thrown = thrown;
        if (thrown != null && !t.awaited && failure == null) {
          failure = thrown;
        }
        notifyAll();
      }
      afterTask.run();
    }
  }

  /**
   * Stops taking new tasks, lets the queued ones run, and waits for the thread (after {@code timeoutMillis}
   * it is interrupted, for a task blocked in a collective whose peers are gone). The scheduler thread.
   */
  @Override
  public void close() {
    close(10_000);
  }

  void close(long timeoutMillis) {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    try {
      thread.join(timeoutMillis);
      if (thread.isAlive()) {
        thread.interrupt();
        thread.join(timeoutMillis);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Returns whether the thread is still alive (false after {@link #close()}). */
  boolean alive() {
    return thread.isAlive();
  }
}
