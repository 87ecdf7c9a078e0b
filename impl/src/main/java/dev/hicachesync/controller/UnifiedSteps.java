package dev.hicachesync.controller;

/**
 * The steps of version {@code unified}, one object each, built once per controller; {@link CacheController}
 * dispatches to them when its version is {@code unified} (HiCacheUnified.tla).
 */
final class UnifiedSteps {
  final UnifiedIssuePrefetch issue;
  final UnifiedPrefetchThread threads;
  final UnifiedEventCheck events;
  final UnifiedPrefetchProgress progress;
  final UnifiedReleaseAborted abort;

  UnifiedSteps(CacheController c) {
    UnifiedSettle settle = new UnifiedSettle(c);
    this.issue = new UnifiedIssuePrefetch(c);
    this.threads = new UnifiedPrefetchThread(c);
    this.events = new UnifiedEventCheck(c, settle, new UnifiedReads(c));
    this.progress = new UnifiedPrefetchProgress(c, settle);
    this.abort = new UnifiedReleaseAborted(c, settle);
  }
}
