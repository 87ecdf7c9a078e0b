package dev.hicachesync.sim.environment;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.storage.StorageBackend;

/**
 * One rank's environment schedule: how long its copies and background I/O take, which storage reads fail,
 * and its rank-local conditions. The seam through which tests script or generate schedules; the
 * default is {@link SeededTiming}.
 *
 * <p>Rank thread only. Must be a pure function of its construction arguments and its own call sequence,
 * never of wall time or of other ranks, or runs stop being reproducible.
 */
public interface Timing {

  /** Returns the ticks ≥ 0 until a device↔host copy of {@code pages} pages completes. */
  long copyTicks(TransferKind kind, int pages);

  /**
   * Returns the ticks ≥ 0 until background work completes: a storage read or write of {@code pages}
   * pages, or (pages = 0) the prefetch thread's storage query reaching the scheduler.
   */
  long backgroundTicks(TransferKind kind, int pages);

  /** Returns whether the storage read batch being issued fails. */
  boolean readFails();

  /**
   * Returns whether the sidecar page read being issued ({@code TransferKind.SIDECAR_READ}, a rank with a sidecar
   * pool, {@link Fault#SIDECAR_POOL}) fails. Never by default; {@code check --replay} answers from the spec's
   * {@code StorageReadsSidecarPage}.
   */
  default boolean sidecarReadFails() {
    return false;
  }

  /**
   * Returns whether the running batch is full at the current step's admission ({@code batch_is_full}, a fact of
   * the replicated state, the same on every rank), so the admission returns before its loop: requests wait,
   * prefetches go on. Never by default (the simulator's batch has room); {@code check --replay} answers from the
   * spec's {@code BatchFills} "busy" choice.
   */
  default boolean batchIsFull() {
    return false;
  }

  /** Returns this rank's rank-local "batch full" condition for the current admission check (B10's fault). */
  boolean localBatchFull();

  /**
   * Tells the schedule that the rank starts step {@code step} (before the step's due I/O lands): a scripted
   * schedule ({@code check --replay}'s, from a counterexample) keys its answers by step. The seeded one ignores it.
   */
  default void beginStep(long step) {}

  /**
   * Returns whether the rank's prefetch thread takes its pass (S7 on every queued operation) at the start of
   * the current step; false leaves it idle until the next step, as a thread that has not been scheduled yet.
   */
  default boolean prefetchPassRuns() {
    return true;
  }

  /**
   * Returns whether the rank's prefetch thread takes a pass in the current step after RECV, right before the
   * scheduler's event check (S123): a storage thread the OS runs while the scheduler is mid-step. Never by
   * default (the pass is at the step boundary, {@link #prefetchPassRuns}); {@code check --replay} asks for
   * it where the spec's {@code PfQuery} comes before the rank's own S123 in the step.
   */
  default boolean prefetchPassBeforeEvents() {
    return false;
  }

  /**
   * Returns whether background I/O due by now lands right before the scheduler's admission (a storage read
   * that completes while the scheduler is mid-step, before {@code check_prefetch_progress}). Never by default:
   * I/O lands at step starts and where the loop waits for it; {@code check --replay} asks for it so that a read
   * the spec's {@code PfRead} completes before the rank's admission is there for it.
   */
  default boolean landsIoBeforeAdmission() {
    return false;
  }

  /**
   * Returns whether a spec-shaped step, after the prefetch thread's pass, waits until every S7 outcome has
   * reached the scheduler (the spec's default: no storage-query latency). A schedule that times each outcome
   * itself ({@code check --replay}'s, from the spec's {@code PfPutHit}) says no: an outcome then reaches the
   * scheduler when the latency {@link #backgroundTicks} gave it ({@code pages = 0}) is due, in this phase when
   * it is 0, at the start of a later step otherwise.
   */
  default boolean settlesPrefetchOutcomes() {
    return true;
  }

  /**
   * Returns whether this rank's clock orders the LRU timestamps the other way from its peers' at the current
   * step (the fault {@link Fault#LOCAL_LRU_CLOCK} reads it at every step start).
   */
  default boolean lruClockSkewed() {
    return false;
  }

  /**
   * Returns whether this rank's schedule policy orders the waiting queue the other way from its peers' at the
   * current step, newest first (the fault {@link Fault#LOCAL_QUEUE_ORDER} reads it at every admission).
   */
  default boolean queueOrderSkewed() {
    return false;
  }

  /**
   * Returns whether this rank's prefetch thread has died by the current step (its storage query raised): the fault
   * {@link Fault#PREFETCH_THREAD_DIES} reads it before each pass, and once it says so no later pass runs. Never by
   * default.
   */
  default boolean prefetchThreadDies() {
    return false;
  }

  /**
   * Returns whether this rank's next storage hit query ({@code _storage_hit_query}) raises (knob {@code pf_raise},
   * spec action {@code PfRaise}): the faults {@link Fault#PF_RAISE} and {@link Fault#PF_RAISE_THREAD_DIES} ask it
   * once before each query of the rank's prefetch thread. Never by default.
   */
  default boolean storageHitQueryRaises() {
    return false;
  }

  /**
   * Returns whether the running request {@code rid} is aborted at the current step on this rank (the client's
   * abort received with this step's requests: it finishes as an abort). None by default (a run's aborts of
   * running requests are drawn from its seed, {@code SimConfig.abortRunning}).
   */
  default boolean abortsRunning(String rid) {
    return false;
  }

  /**
   * Returns whether the waiting request {@code rid} is aborted at the current step on this rank: the
   * client's abort received with this step's requests, or its waiting timeout fired on this rank's clock. None
   * by default (a run's aborts come from its workload).
   */
  default boolean abortsWaiting(String rid) {
    return false;
  }

  /**
   * Returns the L3 store as this rank sees it, given the run's {@code store}: which leading pages S7's query
   * finds is the environment's (another instance may have written them, or evicted them). The store itself
   * by default.
   */
  default StorageBackend storageSeenBy(StorageBackend store) {
    return store;
  }

  /**
   * Whether the prefetch of request {@code rid} has timed out on this rank now (the {@code timeout} policy's
   * local condition, the spec's {@code TimeoutFires}); {@code byClock} is what the rank's virtual clock says, the
   * answer by default ({@code check --replay} answers from its schedule).
   */
  default boolean timeoutFires(String rid, boolean byClock) {
    return byClock;
  }

  /**
   * Whether a spec-shaped run's domain checker compares each step {@code s - 1} right after RECV {@code s}
   * completes (every member has finished it then), on the domain's first rank before its event check, instead of
   * two steps on: so a divergence of step {@code s - 1} is named before step {@code s}'s event check, whose
   * collectives (a later stage's S123, which waits for that rank's forward) could name a consequence first. The
   * spec checks its invariants in every state, so it sees that order. Off by default ({@code check --replay}
   * turns it on where its schedule needs it).
   */
  default boolean comparesStepAtNextRecv() {
    return false;
  }

  /**
   * Whether the KV bootstrap of the PD prefill request {@code rid} has completed as this rank polls it now
   * ({@code disagg_kv_sender.poll()} is {@code WaitingForInput}, the spec's {@code Bootstrapped}): read by the
   * bootstrap queue of fault {@link Fault#PD_PREFILL_BOOTSTRAP} at each step's bootstrap ring. At once by default.
   */
  default boolean bootstrapped(String rid) {
    return true;
  }

  /** Builds the timing of one rank. */
  @FunctionalInterface
  interface Factory {
    /**
     * Returns rank {@code rank}'s timing for a run of {@code seed}; {@code readFailure} is the failure
     * probability the run allows this rank (0 on later PP stages).
     */
    Timing create(long seed, int rank, double readFailure);
  }
}
