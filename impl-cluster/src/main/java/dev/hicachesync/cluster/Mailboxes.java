package dev.hicachesync.cluster;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * What a {@link ClusterNode} has received and not yet handed out: the members' contributions to each group's
 * calls, and the messages of each pipeline channel. Guarded by the node's lock (every method: the caller holds
 * it).
 */
final class Mailboxes {
  /** Group name → call number → contributions by rank (the own one included). */
  private final Map<String, Map<Long, Map<Integer, WireCall>>> contributions = new HashMap<>();
  /** "from>to" → messages received and not yet taken. */
  private final Map<String, ArrayDeque<long[]>> pipeInbox = new HashMap<>();

  /** Returns the contributions to {@code group}'s call {@code seq} so far, by rank. */
  Map<Integer, WireCall> contributionsLocked(String group, long seq) {
    return contributions.computeIfAbsent(group, g -> new HashMap<>()).computeIfAbsent(seq, s -> new HashMap<>());
  }

  /** Forgets a completed call. */
  void forgetLocked(String group, long seq) {
    Map<Long, Map<Integer, WireCall>> calls = contributions.get(group);
    if (calls != null) {
      calls.remove(seq);
    }
  }

  /** Returns the inbox of pipe {@code from->to}. */
  ArrayDeque<long[]> inboxLocked(int from, int to) {
    return pipeInbox.computeIfAbsent(from + ">" + to, k -> new ArrayDeque<>());
  }
}
