package dev.hicachesync.controller;

import dev.hicachesync.env.ManualTicker;
import dev.hicachesync.env.Ticker;
import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.env.TransferKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/** A controller environment the test drives by hand: copies finish when told, background work runs when told. */
final class ManualEnv implements ControllerEnv {
  final ManualTicker clock = new ManualTicker();
  final List<ManualEvent> copies = new ArrayList<>();
  final List<Consumer<Boolean>> background = new ArrayList<>();

  /** A copy that completes when the test says so (or when someone blocks on it). */
  static final class ManualEvent implements TransferEvent {
    volatile boolean done;

    @Override
    public boolean isDone() {
      return done;
    }

    @Override
    public void await() {
      done = true; // blocking on one's own stream: it finishes, only later
    }
  }

  @Override
  public Ticker clock() {
    return clock;
  }

  @Override
  public TransferEvent copy(TransferKind kind, int pages) {
    ManualEvent e = new ManualEvent();
    copies.add(e);
    return e;
  }

  @Override
  public void background(TransferKind kind, int pages, Consumer<Boolean> work) {
    background.add(work);
  }

  @Override
  public void awaitCondition(BooleanSupplier condition) {
    while (!condition.getAsBoolean() && !background.isEmpty()) {
      background.remove(0).accept(true);
    }
  }

  /** Runs every pending background job (successfully). */
  void runBackground() {
    while (!background.isEmpty()) {
      background.remove(0).accept(true);
    }
  }
}
