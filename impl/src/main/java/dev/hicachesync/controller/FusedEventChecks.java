package dev.hicachesync.controller;

/**
 * The steps of {@code merged} (#30511): the event check is S123 ({@link CheckHicacheEvents}), S1, S2 and S3 in
 * one vector all-reduce per step; the prefetch steps are those of the earlier versions.
 */
final class FusedEventChecks extends HiCacheSyncSteps {
  private final CheckHicacheEvents checkHicacheEvents;

  FusedEventChecks(RankState s) {
    super(s);
    this.checkHicacheEvents = new CheckHicacheEvents(s);
  }

  @Override
  public void checkEvents() {
    checkHicacheEvents.run();
  }
}
