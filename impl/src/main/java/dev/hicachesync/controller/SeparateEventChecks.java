package dev.hicachesync.controller;

/**
 * The steps of {@code pre20460} and {@code post20460}: the event check is S1 ({@link WritingCheck}), S2
 * ({@link LoadingCheck}) and, with storage, S3 ({@link DrainStorageControlQueues}), three collectives per step. The
 * two versions differ only in the groups the sync layer reduces over (attn_tp alone before #20460).
 */
final class SeparateEventChecks extends HiCacheSyncSteps {
  private final WritingCheck writingCheck;
  private final LoadingCheck loadingCheck;
  private final DrainStorageControlQueues drainStorageControlQueues;
  private final StorageTier storage;

  SeparateEventChecks(RankState s) {
    super(s);
    this.storage = s.storage();
    this.writingCheck = new WritingCheck(s);
    this.loadingCheck = new LoadingCheck(s);
    this.drainStorageControlQueues = new DrainStorageControlQueues(s);
  }

  @Override
  public void checkEvents() {
    writingCheck.run();
    loadingCheck.run();
    if (storage.attached()) {
      drainStorageControlQueues.run();
    }
  }
}
