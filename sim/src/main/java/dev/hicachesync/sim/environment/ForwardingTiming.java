package dev.hicachesync.sim.environment;

import dev.hicachesync.env.TransferKind;
import dev.hicachesync.storage.StorageBackend;

/**
 * A {@link Timing} that asks another for everything: the base of decorators that change one answer (a copy
 * that takes a tick longer, background I/O slowed by a fault) and must pass the rest through unchanged.
 */
public abstract class ForwardingTiming implements Timing {
  private final Timing inner;

  public ForwardingTiming(Timing inner) {
    this.inner = inner;
  }

  @Override
  public long copyTicks(TransferKind kind, int pages) {
    return inner.copyTicks(kind, pages);
  }

  @Override
  public long backgroundTicks(TransferKind kind, int pages) {
    return inner.backgroundTicks(kind, pages);
  }

  @Override
  public boolean readFails() {
    return inner.readFails();
  }

  @Override
  public boolean sidecarReadFails() {
    return inner.sidecarReadFails();
  }

  @Override
  public boolean batchIsFull() {
    return inner.batchIsFull();
  }

  @Override
  public boolean localBatchFull() {
    return inner.localBatchFull();
  }

  @Override
  public void beginStep(long step) {
    inner.beginStep(step);
  }

  @Override
  public boolean prefetchPassRuns() {
    return inner.prefetchPassRuns();
  }

  @Override
  public boolean prefetchPassBeforeEvents() {
    return inner.prefetchPassBeforeEvents();
  }

  @Override
  public boolean landsIoBeforeAdmission() {
    return inner.landsIoBeforeAdmission();
  }

  @Override
  public boolean settlesPrefetchOutcomes() {
    return inner.settlesPrefetchOutcomes();
  }

  @Override
  public StorageBackend storageSeenBy(StorageBackend store) {
    return inner.storageSeenBy(store);
  }

  @Override
  public boolean lruClockSkewed() {
    return inner.lruClockSkewed();
  }

  @Override
  public boolean queueOrderSkewed() {
    return inner.queueOrderSkewed();
  }

  @Override
  public boolean abortsRunning(String rid) {
    return inner.abortsRunning(rid);
  }

  @Override
  public boolean abortsWaiting(String rid) {
    return inner.abortsWaiting(rid);
  }

  @Override
  public boolean timeoutFires(String rid, boolean byClock) {
    return inner.timeoutFires(rid, byClock);
  }

  @Override
  public boolean comparesStepAtNextRecv() {
    return inner.comparesStepAtNextRecv();
  }

  @Override
  public boolean prefetchThreadDies() {
    return inner.prefetchThreadDies();
  }

  @Override
  public boolean storageHitQueryRaises() {
    return inner.storageHitQueryRaises();
  }

  @Override
  public boolean bootstrapped(String rid) {
    return inner.bootstrapped(rid);
  }
}
