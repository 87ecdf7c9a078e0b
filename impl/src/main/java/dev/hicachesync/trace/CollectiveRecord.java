package dev.hicachesync.trace;

import java.util.List;
import java.util.Set;

/**
 * One member's side of a completed collective: spec action {@code CollectiveCompletes(g)}.
 *
 * <p>Vocabulary of the spec ({@code HiCacheSync.tla}, {@code Collectives.tla}): {@code grp} is the group
 * kind ({@code domain} for RECV, {@code attn_cp} or {@code attn_tp} for a sync point; {@code pipe}: a later
 * pipeline stage's one-member line for a decision it received from the stage before, value and result that
 * decision), {@code ch} the thread
 * that owns the group ({@code sched} or {@code pf}), {@code stage} the group's position in the sync point's
 * chain (1 = attn_cp, 2 = attn_tp after #20460, singletons skipped).
 *
 * @param rank the member that logged this line
 * @param step its scheduler step
 * @param group group kind
 * @param channel thread of the group
 * @param members the group's ranks, ascending
 * @param site call site: RECV, S1..S7, S123
 * @param stage 1-based position of the group in the site's chain
 * @param op MIN or MAX
 * @param value this member's local value
 * @param result what this member received
 * @param popped acks popped at this sync point's decision (S1 [w], S2 [l], S3 [rv, ba, rl], S123 all
 *     five), or null when not logged
 * @param snapshot at RECV: the rank's state while it waited, or null when not logged
 */
public record CollectiveRecord(
    int rank, long step, String group, String channel, List<Integer> members, String site, int stage,
    String op, List<Long> value, List<Long> result, List<Long> popped, Snapshot snapshot)
    implements TraceRecord {

  /** Group kinds the spec knows. */
  public static final Set<String> GROUPS = Set.of("domain", "attn_cp", "attn_tp", "pipe");
  /** Threads that own groups. */
  public static final Set<String> CHANNELS = Set.of("sched", "pf");
  /** Call sites (the spec's {@code Sites}). */
  public static final Set<String> SITES = Set.of("RECV", "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S123");
  /** Reduction ops. */
  public static final Set<String> OPS = Set.of("MIN", "MAX");

  /** Checks the fields; throws {@link IllegalArgumentException} with one line naming the bad field. */
  public CollectiveRecord {
    members = List.copyOf(members);
    value = List.copyOf(value);
    result = List.copyOf(result);
    popped = popped == null ? null : List.copyOf(popped);
    check(GROUPS.contains(group), "grp", "'" + group + "' is not one of " + sorted(GROUPS));
    check(CHANNELS.contains(channel), "ch", "'" + channel + "' is not one of " + sorted(CHANNELS));
    check(SITES.contains(site), "site", "'" + site + "' is not one of " + sorted(SITES));
    check(OPS.contains(op), "op", "'" + op + "' is not one of " + sorted(OPS));
    check(stage >= 1, "stage", "must be >= 1, got " + stage);
    check(step >= 0, "step", "must be >= 0, got " + step);
    check(!members.isEmpty(), "m", "must name at least one rank");
    for (int i = 1; i < members.size(); i++) {
      check(members.get(i - 1) < members.get(i), "m", "must be strictly ascending, got " + members);
    }
    check(members.contains(rank), "m", "does not contain the logging rank " + rank);
    check(value.size() == result.size(), "res",
        "has " + result.size() + " elements, val has " + value.size());
  }

  @Override
  public TraceEvent event() {
    return TraceEvent.CollectiveCompletes;
  }

  /** The key of this record's group: kind, thread and members (the spec's {@code Group}). */
  public String groupKey() {
    return group + "/" + channel + "/" + members;
  }

  private static void check(boolean ok, String field, String message) {
    if (!ok) {
      throw new IllegalArgumentException("field '" + field + "' " + message);
    }
  }

  private static List<String> sorted(Set<String> s) {
    return s.stream().sorted().toList();
  }
}
