package dev.hicachesync.controller;

import dev.hicachesync.tree.TreeNode;
import java.util.List;

/**
 * One rank's storage control queues, which background threads fill and S3 drains: revokes (S7 revoked a
 * prefetch), backup acks (a node reached storage) and host releases (slots a prefetch no longer needs).
 * Each is a {@link ReadyQueue}: appended in a deterministic order, ready at rank-local times, popped by the
 * scheduler in counts every rank agreed on.
 */
final class StorageQueues {
  private final RankState s;
  private final ReadyQueue<String> revokes = new ReadyQueue<>();
  private final ReadyQueue<Long> backupAcks = new ReadyQueue<>();
  private final ReadyQueue<int[]> releases = new ReadyQueue<>();

  StorageQueues(RankState s) {
    this.s = s;
  }

  ReadyQueue.Entry<String> addRevoke(String rid) {
    return revokes.add(rid);
  }

  ReadyQueue.Entry<Long> addBackupAck(long nodeId) {
    return backupAcks.add(nodeId);
  }

  ReadyQueue.Entry<int[]> addRelease(int[] slots) {
    return releases.add(slots);
  }

  /** The host-release queue itself: a prefetch queues its tail there ({@link PrefetchOperation#queueTail}). */
  ReadyQueue<int[]> releaseQueue() {
    return releases;
  }

  int revokesReady() {
    return revokes.leadingReady();
  }

  int backupAcksReady() {
    return backupAcks.leadingReady();
  }

  int releasesReady() {
    return releases.leadingReady();
  }

  /** Returns [revokes, backup acks, host releases] queued. */
  int[] sizes() {
    return new int[] {revokes.size(), backupAcks.size(), releases.size()};
  }

  /** The slots of every queued host release, head first. */
  List<int[]> queuedReleases() {
    return releases.items();
  }

  /** Whether every revoke and host-release entry queued so far is ready (no read still writes a released slot). */
  boolean revokesAndReleasesReady() {
    return revokes.leadingReady() == revokes.size() && releases.leadingReady() == releases.size();
  }

  /** Pops exactly the S3 counts: revokes, backup acks, host releases. */
  void drain(int revokeCount, int backupCount, int releaseCount) {
    s.hashes().mixAck(3, revokeCount, backupCount, releaseCount);
    ControllerStats stats = s.stats();
    stats.storageAcksPopped(revokeCount, backupCount, releaseCount);
    if (revokeCount + backupCount + releaseCount > 0) {
      // Ready already on a deciding rank; a later PP stage blocks on its own I/O first.
      s.env().awaitCondition(() -> revokes.leadingReady() >= revokeCount
          && backupAcks.leadingReady() >= backupCount && releases.leadingReady() >= releaseCount);
    }
    for (int i = 0; i < revokeCount; i++) {
      String rid = revokes.poll();
      PrefetchOperation op = s.prefetches().remove(rid);
      if (op != null) {
        s.tree().releaseHost(op.anchor());
        s.hashes().mixPrefetch(7, rid.hashCode());
      }
    }
    for (int i = 0; i < backupCount; i++) {
      long id = backupAcks.poll();
      TreeNode node = s.writes().finishStorageWriteAck(id) ? null : s.tree().node(id);
      if (node != null) {
        s.tree().releaseHost(node);
      }
    }
    for (int i = 0; i < releaseCount; i++) {
      int[] slots = releases.poll();
      s.hashes().mixAck(4, slots.length); // the entries themselves agree too (the spec's rlq: their page counts)
      s.pools().freeHost(slots, "S3 host release");
    }
  }

  /** Pops one ready host release and frees its slots (the concurrency tests' S3, one entry at a time). */
  void freeNextRelease(String why) {
    s.pools().freeHost(releases.poll(), why);
  }
}
