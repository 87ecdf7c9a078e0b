package dev.hicachesync.report.swimlane;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One collective drawn across the lanes of its group: where it was called, over which group, what
 * each member sent and what every member got back.
 *
 * @param site the call site ({@code RECV}, {@code S1}, ..., {@code S123})
 * @param op {@code MIN} or {@code MAX}
 * @param group the group's kind ({@code domain}, {@code attn_cp}, {@code attn_tp}, {@code pp}, ...)
 * @param channel the thread that owns the group ({@code sched}, {@code pf})
 * @param members the ranks of the group, ascending
 * @param sent each member's payload, as text
 * @param result the payload every member received, as text
 * @param vectors each member's payload as numbers, when every payload is a tuple of integers (else empty)
 * @param labels the names of the payload's positions (the spec's {@code \* payload} comment), or empty
 */
public record Collective(String site, String op, String group, String channel, List<Integer> members,
    Map<Integer, String> sent, String result, Map<Integer, List<Long>> vectors, List<String> labels) {

  public Collective {
    members = List.copyOf(members);
    sent = Map.copyOf(sent);
    vectors = Map.copyOf(vectors);
    labels = List.copyOf(labels);
  }

  /** A collective without numeric payloads or labels. */
  public Collective(String site, String op, String group, String channel, List<Integer> members,
      Map<Integer, String> sent, String result) {
    this(site, op, group, channel, members, sent, result, Map.of(), List.of());
  }

  /** This collective with its positions named. */
  public Collective labelled(List<String> names) {
    return new Collective(site, op, group, channel, members, sent, result, vectors, names);
  }

  /** "S1 MIN on attn_cp/sched {0, 2}". */
  public String title() {
    return site + " " + op + " on " + group + "/" + channel + " " + members.toString().replace('[', '{').replace(']', '}');
  }

  /** Whether this is a start-up barrier of {@code new_group} (every group is created by a world barrier). */
  public boolean isSetup() {
    return site.equals("new_group");
  }

  /**
   * Per payload position (0-based), the members that sent something else than the others: the minority,
   * or when no value is sent by more members than any other, the members whose value became the result
   * (the one a MIN or MAX took). Positions where every member sent the same are absent.
   */
  public Map<Integer, Set<Integer>> oddMembers() {
    Map<Integer, Set<Integer>> out = new LinkedHashMap<>();
    if (vectors.size() != members.size() || members.size() < 2) {
      return out;
    }
    int size = vectors.get(members.get(0)).size();
    for (int i = 0; i < size; i++) {
      Map<Long, Integer> count = new HashMap<>();
      for (int m : members) {
        List<Long> v = vectors.get(m);
        if (v.size() != size) {
          return new LinkedHashMap<>();
        }
        count.merge(v.get(i), 1, Integer::sum);
      }
      if (count.size() < 2) {
        continue;
      }
      int best = count.values().stream().max(Integer::compare).orElse(0);
      List<Long> majority = new ArrayList<>();
      count.forEach((value, n) -> {
        if (n == best) {
          majority.add(value);
        }
      });
      Long taken = null;
      for (int m : members) {
        long v = vectors.get(m).get(i);
        taken = taken == null ? v : "MIN".equals(op) ? Math.min(taken, v) : Math.max(taken, v);
      }
      Set<Integer> odd = new TreeSet<>();
      for (int m : members) {
        long v = vectors.get(m).get(i);
        boolean minority = majority.size() == 1 ? v != majority.get(0) : v == taken;
        if (minority) {
          odd.add(m);
        }
      }
      out.put(i, odd);
    }
    return out;
  }
}
