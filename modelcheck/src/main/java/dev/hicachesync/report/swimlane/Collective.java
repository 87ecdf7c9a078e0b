package dev.hicachesync.report.swimlane;

import java.util.List;
import java.util.Map;

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
 */
public record Collective(String site, String op, String group, String channel, List<Integer> members,
    Map<Integer, String> sent, String result) {

  public Collective {
    members = List.copyOf(members);
    sent = Map.copyOf(sent);
  }

  /** "S1 MIN on attn_cp/sched {0, 2}". */
  public String title() {
    return site + " " + op + " on " + group + "/" + channel + " " + members.toString().replace('[', '{').replace(']', '}');
  }
}
