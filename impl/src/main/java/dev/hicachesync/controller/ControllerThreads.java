package dev.hicachesync.controller;

import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * <b>Internal</b>: the threads SGLang's {@code HiCacheController} runs beside the scheduler, one {@link
 * HandOffWorker} each, owned by one rank ({@code api.HiCacheRank} starts them, its {@code close()} stops
 * them):
 * <ul>
 *   <li><b>prefetch</b> ({@code prefetch_thread_func}): S7 on the prefetch groups, one pass per hand-off;
 *   <li><b>prefetch I/O</b> ({@code prefetch_io_aux_func}): the S7 outcome's deposit and the storage read
 *       batches;
 *   <li><b>completion sync</b> ({@code prefetch_sync_thread_func}, version {@code unified}, #27010): the MIN of
 *       each storage read batch's completion ack, on groups of its own (never the prefetch thread's);
 *   <li><b>backup</b> ({@code backup_thread_func}): the L2 → L3 storage writes;
 *   <li><b>copy completion</b> (the CUDA events' host callbacks): marks device ↔ host copies done, in
 *       free-running mode (stepped copies complete on the rank's clock, see below).
 * </ul>
 *
 * <p><b>Stepped</b> ({@link #stepped}): every hand-off waits for its hand-back ({@link
 * HandOffWorker#runAndAwait}). The work runs on its thread, but at the instant the caller's environment
 * chose (the simulator's seeded virtual time, the built-in step environment), so a seed gives the same
 * report and digests as when everything ran on the rank's thread, and what one thread wrote is published to
 * the next by the hand-off's monitor. <b>Free-running</b> ({@link #freeRunning}): hand-offs return at once;
 * the threads race the scheduler as SGLang's do and only the sync points' reduced values decide (the engine's
 * mode). Failures of a free-running task surface on the scheduler's next {@link #rethrowFailure}.
 */
public final class ControllerThreads implements AutoCloseable {
  private final boolean stepped;
  private final HandOffWorker prefetch;
  private final HandOffWorker prefetchIo;
  private final HandOffWorker completionSync;
  private final HandOffWorker backup;
  private final HandOffWorker copies;
  /** Signalled after every task of every worker (see {@link #awaitCondition}). */
  private final Object progress = new Object();

  private ControllerThreads(boolean stepped, String name) {
    this.stepped = stepped;
    Runnable tell = this::signal;
    this.prefetch = new HandOffWorker("hicache-prefetch-" + name, tell);
    this.prefetchIo = new HandOffWorker("hicache-prefetch-io-" + name, tell);
    this.completionSync = new HandOffWorker("hicache-prefetch-sync-" + name, tell);
    this.backup = new HandOffWorker("hicache-backup-" + name, tell);
    this.copies = new HandOffWorker("hicache-copy-completion-" + name, tell);
  }

  /** Starts the five threads of rank {@code name} in stepped mode (deterministic under a seeded environment). */
  public static ControllerThreads stepped(String name) {
    return new ControllerThreads(true, name);
  }

  /** Starts the five threads of rank {@code name} in free-running mode (an engine's). */
  public static ControllerThreads freeRunning(String name) {
    return new ControllerThreads(false, name);
  }

  /** Returns whether hand-offs wait for their hand-back. */
  public boolean isStepped() {
    return stepped;
  }

  /**
   * Runs {@code pass} (the prefetch thread's S7 for the operations handed over with it) on the prefetch
   * thread. A pass takes exactly the operations queued at its hand-over, never one queued while it runs
   * (otherwise the passes, and the release-queue order, differ per rank); which operations that is, and
   * whether there is a pass at all, the version's steps decide on the scheduler thread, the only producer of
   * the queue. Scheduler thread.
   */
  void onPrefetchThread(Runnable pass) {
    handOff(prefetch, pass);
  }

  /**
   * Runs {@code acks} (version {@code unified}: the completion sync of the batch acks picked for this pass)
   * on the completion-sync thread, whose groups are its own. Scheduler thread.
   */
  void onCompletionSyncThread(Runnable acks) {
    handOff(completionSync, acks);
  }

  /**
   * Returns {@code env} with its background work moved onto these threads: when {@code env} says a transfer
   * is over, its work runs on the prefetch I/O thread (storage reads, deposits) or the backup thread
   * (storage writes); stepped, the environment's thread waits for it there.
   */
  public ControllerEnv around(ControllerEnv env) {
    return new ControllerEnv() {
      @Override
      public Ticker clock() {
        return env.clock();
      }

      @Override
      public TransferEvent copy(TransferKind kind, int pages) {
        return env.copy(kind, pages);
      }

      @Override
      public void background(TransferKind kind, int pages, Consumer<Boolean> work) {
        env.background(kind, pages, ok -> onThreadOf(kind, () -> work.accept(ok)));
      }

      @Override
      public void awaitCondition(BooleanSupplier condition) {
        env.awaitCondition(condition);
      }

      @Override
      public boolean timeoutFires(String rid, long issueTick, long limit) {
        return env.timeoutFires(rid, issueTick, limit);
      }
    };
  }

  /** Runs {@code work} on the thread that owns a {@code kind} transfer (stepped: waits for it). Any thread. */
  public void onThreadOf(TransferKind kind, Runnable work) {
    handOff(switch (kind) {
      case STORAGE_WRITE -> backup;
      case STORAGE_READ, SIDECAR_READ -> prefetchIo;
      case DEVICE_TO_HOST, HOST_TO_DEVICE -> copies;
    }, work);
  }

  private void handOff(HandOffWorker w, Runnable work) {
    if (stepped) {
      w.runAndAwait(work);
    } else {
      w.submit(work);
    }
  }

  /**
   * Blocks until {@code condition} holds, re-testing it after every task any of these threads finishes (a
   * free-running scheduler waiting for its own I/O: a later PP stage). Scheduler thread.
   */
  public void awaitCondition(BooleanSupplier condition) {
    synchronized (progress) {
      while (!condition.getAsBoolean()) {
        rethrowFailure();
        try {
          progress.wait(100); // the bound only re-checks failures; every task's end notifies
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for this rank's I/O", e);
        }
      }
    }
  }

  /**
   * Waits up to {@code timeoutMillis} until none of the threads has work queued or running; returns whether
   * they are idle. Free-running work handed over just before still runs for a moment after the scheduler's
   * last step; a quiescence check waits for it first. Any thread but the rank's own.
   */
  public boolean awaitIdle(long timeoutMillis) {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
    synchronized (progress) {
      while (pending() > 0) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return false;
        }
        try {
          progress.wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  private void signal() {
    synchronized (progress) {
      progress.notifyAll();
    }
  }

  /** Throws the first failure of a free-running task, if any (the scheduler's next API call). */
  public void rethrowFailure() {
    for (HandOffWorker w : workers()) {
      w.rethrowFailure();
    }
  }

  /** Returns the tasks handed over and not yet finished, over all threads (0 once quiet). Any thread. */
  public int pending() {
    int n = 0;
    for (HandOffWorker w : workers()) {
      n += w.pending();
    }
    return n;
  }

  /** Returns how many of the five threads are alive (0 after {@link #close()}). */
  public int liveThreads() {
    int n = 0;
    for (HandOffWorker w : workers()) {
      n += w.alive() ? 1 : 0;
    }
    return n;
  }

  private List<HandOffWorker> workers() {
    return List.of(prefetch, completionSync, prefetchIo, backup, copies);
  }

  /**
   * Stops the threads after the work already handed over (prefetch first: it hands work to the others; the
   * completion sync before the I/O thread, whose batches it may still be waiting for).
   */
  @Override
  public void close() {
    for (HandOffWorker w : workers()) {
      w.close();
    }
  }
}
