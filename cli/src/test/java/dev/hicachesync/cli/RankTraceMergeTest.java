package dev.hicachesync.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hicachesync.trace.ndjson.RankTraceMerge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link RankTraceMerge} on small hand-made rank files: each rank's order is kept; a collective's first line
 * comes after every member's earlier lines of its channel; two threads of a rank that called in the other order
 * than a peer's do not block the merge; a rank that stopped leaves its peers' lines written and counted; files
 * of two runs are refused. {@link #orderViolation} is the property the command tests check on real merges.
 */
class RankTraceMergeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HEADER = "{\"trace\":\"hicache-sync-trace/1\",\"DP\":1,\"CP\":2,\"TP\":1,\"PP\":1}";

  /** A collective line of rank {@code r} on group {@code grp}, channel {@code ch}, members {@code m}, at {@code step}. */
  private static String line(int r, int step, String grp, String ch, int... m) {
    StringBuilder ms = new StringBuilder();
    for (int x : m) {
      ms.append(ms.length() == 0 ? "" : ",").append(x);
    }
    return "{\"ev\":\"CollectiveCompletes\",\"r\":" + r + ",\"step\":" + step + ",\"grp\":\"" + grp + "\",\"ch\":\""
        + ch + "\",\"m\":[" + ms + "],\"site\":\"S7\",\"stage\":1,\"op\":\"MIN\",\"val\":[0],\"res\":[0]}";
  }

  private static List<String> rank(String... lines) {
    List<String> all = new ArrayList<>(List.of(HEADER));
    all.addAll(List.of(lines));
    return all;
  }

  @Test
  void aCollectiveWaitsForEveryMembersEarlierLines() {
    String a0 = line(0, 1, "attn_cp", "sched", 0, 1);
    String b1 = line(1, 0, "attn_tp", "sched", 1);
    String a1 = line(1, 1, "attn_cp", "sched", 0, 1);
    RankTraceMerge.Merged m = RankTraceMerge.merge(List.of(rank(a0), rank(b1, a1)));
    assertEquals(List.of(HEADER, b1, a1, a0), m.lines());
    assertEquals(0, m.unmatched());
    assertNull(orderViolation(m.lines()));
    // the property itself fails on the order that puts rank 0's line first
    assertTrue(orderViolation(List.of(HEADER, a0, b1, a1)).contains("before rank 1's earlier line"));
  }

  @Test
  void twoThreadsOfARankThatCalledInTheOtherOrderDoNotBlockTheMerge() {
    // rank 0's prefetch thread logged its S7 before its scheduler's S123; rank 1's threads the other way round
    String pf0 = line(0, 3, "attn_cp", "pf", 0, 1);
    String s0 = line(0, 3, "attn_cp", "sched", 0, 1);
    String s1 = line(1, 3, "attn_cp", "sched", 0, 1);
    String pf1 = line(1, 3, "attn_cp", "pf", 0, 1);
    RankTraceMerge.Merged m = RankTraceMerge.merge(List.of(rank(pf0, s0), rank(s1, pf1)));
    assertEquals(0, m.unmatched());
    assertEquals(5, m.lines().size());
    assertEquals(List.of(pf0, s0), byRank(m.lines()).get(0));
    assertEquals(List.of(s1, pf1), byRank(m.lines()).get(1));
    assertNull(orderViolation(m.lines()));
  }

  @Test
  void aRankThatStoppedLeavesItsPeersLinesWrittenAndCounted() {
    String a0 = line(0, 1, "attn_cp", "sched", 0, 1);
    String b0 = line(0, 2, "attn_cp", "sched", 0, 1);
    String a1 = line(1, 1, "attn_cp", "sched", 0, 1);
    RankTraceMerge.Merged m = RankTraceMerge.merge(List.of(rank(a0, b0), rank(a1)));
    assertEquals(List.of(HEADER, a0, a1, b0), m.lines());
    assertEquals(1, m.unmatched());
  }

  @Test
  void filesOfTwoRunsOrOfAnotherRankAreRefused() {
    String a0 = line(0, 1, "attn_cp", "sched", 0, 1);
    IllegalArgumentException headers = assertThrows(IllegalArgumentException.class,
        () -> RankTraceMerge.merge(List.of(rank(a0), List.of(HEADER.replace("\"CP\":2", "\"CP\":3")))));
    assertTrue(headers.getMessage().contains("rank 1's trace header differs from rank 0's"), headers.getMessage());
    IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
        () -> RankTraceMerge.merge(List.of(rank(a0), rank(a0))));
    assertTrue(other.getMessage().contains("rank 1's trace, line 2: not a line of rank 1"), other.getMessage());
  }

  /** Each rank's lines of a merged trace, in file order (the header left out). */
  static Map<Integer, List<String>> byRank(List<String> merged) {
    Map<Integer, List<String>> out = new HashMap<>();
    for (String l : merged.subList(1, merged.size())) {
      out.computeIfAbsent(tree(l).path("r").asInt(), k -> new ArrayList<>()).add(l);
    }
    return out;
  }

  /**
   * Where {@code merged} breaks what validate-trace relies on, or null: the first line of a collective (its
   * members' k-th line on the group) comes after every line each member wrote before its own line of that
   * collective on the same channel.
   */
  static String orderViolation(List<String> merged) {
    Map<Integer, List<String>> ranks = byRank(merged);
    Map<Integer, List<String>> instances = new HashMap<>(); // rank -> instance of each of its lines
    for (Map.Entry<Integer, List<String>> e : ranks.entrySet()) {
      Map<String, Integer> calls = new HashMap<>();
      List<String> ids = new ArrayList<>();
      for (String l : e.getValue()) {
        JsonNode n = tree(l);
        String key = n.path("grp").asText() + "/" + n.path("ch").asText() + "/" + n.path("m");
        ids.add(key + "#" + calls.merge(key, 1, Integer::sum));
      }
      instances.put(e.getKey(), ids);
    }
    Map<Integer, Integer> written = new HashMap<>();
    java.util.Set<String> begun = new java.util.HashSet<>();
    for (int i = 1; i < merged.size(); i++) {
      JsonNode n = tree(merged.get(i));
      int r = n.path("r").asInt();
      int at = written.merge(r, 1, Integer::sum) - 1;
      String id = instances.get(r).get(at);
      if (!n.has("m") || !begun.add(id)) {
        continue;
      }
      for (JsonNode x : n.path("m")) {
        int m = x.asInt();
        int own = instances.getOrDefault(m, List.of()).indexOf(id);
        for (int j = written.getOrDefault(m, 0); j < own; j++) {
          if (m != r && tree(ranks.get(m).get(j)).path("ch").asText().equals(n.path("ch").asText())) {
            return "line " + (i + 1) + " (rank " + r + ", " + id + ") comes before rank " + m
                + "'s earlier line " + ranks.get(m).get(j);
          }
        }
      }
    }
    return null;
  }

  private static JsonNode tree(String line) {
    try {
      return JSON.readTree(line);
    } catch (java.io.IOException e) {
      throw new AssertionError(line, e);
    }
  }
}
