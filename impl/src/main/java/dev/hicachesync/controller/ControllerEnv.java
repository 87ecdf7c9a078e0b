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
   * Whether the prefetch of request {@code rid}, issued at tick {@code issueTick}, has run {@code limit} ticks or
   * more on this rank's clock: the {@code timeout} policy's local condition, which {@code can_terminate_prefetch}
   * reads (the spec's environment action {@code TimeoutFires}). A simulator may decide it from its schedule.
   */
  default boolean timeoutFires(String rid, long issueTick, long limit) {
    return clock().ticks() - issueTick >= limit;
  }
}
