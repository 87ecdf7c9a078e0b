package dev.hicachesync.controller;

import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.util.function.BooleanSupplier;

/**
 * Everything the controller needs from the outside world that a simulator must control: this rank's clock,
 * GPU copies and the background I/O threads. Production wires CUDA events and thread pools; the simulator
 * wires a per-rank virtual-time event queue.
 *
 * <p>Scheduler thread only, except that the background work handed to {@link #background} runs wherever
 * the environment runs it (the simulator: on the rank's thread, at a virtual time).
 */
public interface ControllerEnv {

  /** Returns this rank's clock (logical ticks). */
  Ticker clock();

  /**
   * Starts an asynchronous device↔host copy of {@code pages} pages and returns its completion event (when
   * it completes; the bytes themselves move through {@link KvData}).
   */
  TransferEvent copy(TransferKind kind, int pages);

  /**
   * Runs {@code work} on a background I/O thread once a {@code kind} transfer of {@code pages} pages has
   * finished; {@code work} receives whether the transfer succeeded (storage reads may fail).
   */
  void background(TransferKind kind, int pages, java.util.function.Consumer<Boolean> work);

  /** Blocks the scheduler thread until {@code condition} holds (later PP stages waiting on their own I/O). */
  void awaitCondition(BooleanSupplier condition);

  /**
   * Whether request {@code rid}'s prefetch, issued at tick {@code issueTick}, has timed out on this rank's clock
   * ({@code timeout} policy; spec action {@code TimeoutFires}): by default once {@code limit} ticks have passed. A
   * rank-local input that S4's MAX makes common; a replay's environment answers it from the counterexample.
   */
  default boolean timeoutFires(String rid, long issueTick, long limit) {
    return clock().ticks() - issueTick >= limit;
  }
}
