package dev.hicachesync.trace.ndjson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges the traces that the ranks of one run wrote each to its own file ({@code simulate --processes}: a
 * process per rank) into the one trace the in-JVM run writes: the header once, then every rank's lines, each
 * rank's in its own order.
 *
 * <p>What the merged order must give is what one JVM's recorder gives by recording each line after its call
 * returned, and what {@code validate-trace} relies on (it takes a collective's k-th line of each member on one
 * group as the group's k-th call, and puts the call where its first line is): when the first line of a
 * collective is written, every member has already written the lines its thread wrote before it called.
 * A rank's lines are written by two threads (channels {@code sched} and {@code pf}), so only a member's
 * earlier lines <em>of the same channel</em> are ordered before its call.
 *
 * <p>The merge writes a rank's next line when it is the line of a collective that has already begun (its first
 * line is out: every member had called), or that may begin: every member's earlier lines are out (the order
 * one thread per rank would give), or, only where no rank can move so, every member's earlier lines of the
 * collective's channel are out (two threads of a rank). A line that is no collective's goes out when it is its
 * rank's next. A merge that can move no further by these rules has lines of a collective some member never
 * wrote (a rank that stopped); it writes the lowest rank's next line as it is, and counts it
 * ({@link Result#unmatched}). A merge of complete traces never needs that: the run's own real-time order
 * obeys the rules, and whatever has been written, the earliest line of that order not yet out may go next.
 */
public final class RankTraceMerge {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RankTraceMerge() {}

  /**
   * What a merge wrote.
   *
   * @param lines events written (the header not counted)
   * @param unmatched lines written out of the rules: a collective line some other member never wrote
   */
  public record Result(long lines, long unmatched) {}

  /** One event line of one rank. */
  private record Line(String text, String instance, String channel, List<Integer> members) {}

  /**
   * Merges the rank files {@code ranks} (rank r's at index r; each a header and that rank's events) into
   * {@code out}.
   *
   * @throws IllegalArgumentException if a file has no header, the headers differ, or a line names another rank
   */
  public static Result merge(List<Path> ranks, Path out) throws IOException {
    List<List<String>> texts = new ArrayList<>();
    for (Path p : ranks) {
      texts.add(Files.readAllLines(p, StandardCharsets.UTF_8));
    }
    Merged merged = merge(texts);
    try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      for (String l : merged.lines()) {
        w.write(l);
        w.write('\n');
      }
    }
    return new Result(merged.lines().size() - 1, merged.unmatched());
  }

  /**
   * A merged trace.
   *
   * @param lines the header, then the events
   * @param unmatched as {@link Result#unmatched}
   */
  public record Merged(List<String> lines, long unmatched) {}

  /** Merges each rank's lines (rank r's at index r, header first). */
  public static Merged merge(List<List<String>> ranks) {
    int world = ranks.size();
    String header = null;
    List<List<Line>> lines = new ArrayList<>();
    Map<String, Map<Integer, Integer>> where = new HashMap<>(); // instance -> member -> index in its list
    for (int r = 0; r < world; r++) {
      List<String> file = ranks.get(r);
      if (file.isEmpty()) {
        throw new IllegalArgumentException("rank " + r + "'s trace is empty (no header)");
      }
      if (header == null) {
        header = file.get(0);
      } else if (!header.equals(file.get(0))) {
        throw new IllegalArgumentException("rank " + r + "'s trace header differs from rank 0's: not one run");
      }
      List<Line> own = new ArrayList<>();
      Map<String, Integer> calls = new HashMap<>();
      for (int i = 1; i < file.size(); i++) {
        String text = file.get(i);
        if (text.isBlank()) {
          continue;
        }
        Line l = parse(text, r, i + 1, calls);
        if (l.instance != null) {
          where.computeIfAbsent(l.instance, k -> new HashMap<>()).put(r, own.size());
        }
        own.add(l);
      }
      lines.add(own);
    }
    List<String> out = new ArrayList<>();
    out.add(header);
    int[] next = new int[world];
    Set<String> begun = new HashSet<>();
    long unmatched = 0;
    while (true) {
      boolean moved = false;
      for (int r = 0; r < world; r++) {
        while (next[r] < lines.get(r).size() && ready(lines, next, where, begun, lines.get(r).get(next[r]), false)) {
          emit(lines.get(r).get(next[r]), out, begun);
          next[r]++;
          moved = true;
        }
      }
      if (moved) {
        continue;
      }
      int stuck = -1;
      for (int r = 0; r < world && stuck < 0; r++) {
        if (next[r] < lines.get(r).size() && ready(lines, next, where, begun, lines.get(r).get(next[r]), true)) {
          stuck = r;
        }
      }
      if (stuck < 0) {
        for (int r = 0; r < world && stuck < 0; r++) {
          if (next[r] < lines.get(r).size()) {
            stuck = r;
            unmatched++;
          }
        }
      }
      if (stuck < 0) {
        break;
      }
      emit(lines.get(stuck).get(next[stuck]), out, begun);
      next[stuck]++;
    }
    return new Merged(out, unmatched);
  }

  /**
   * Whether {@code l}, its rank's next line, may be written now: it is no collective's, or its collective has
   * begun, or every member's earlier lines ({@code byChannel}: of the collective's channel) are out.
   */
  private static boolean ready(List<List<Line>> lines, int[] next, Map<String, Map<Integer, Integer>> where,
      Set<String> begun, Line l, boolean byChannel) {
    if (l.instance == null || begun.contains(l.instance)) {
      return true;
    }
    Map<Integer, Integer> at = where.get(l.instance);
    for (int m : l.members) {
      Integer i = m >= 0 && m < lines.size() ? at.get(m) : null;
      if (i == null) {
        return false; // a member that never wrote its line: only the stuck rule writes it
      }
      if (!byChannel) {
        if (next[m] != i) {
          return false;
        }
        continue;
      }
      for (int j = next[m]; j < i; j++) {
        if (l.channel.equals(lines.get(m).get(j).channel)) {
          return false;
        }
      }
    }
    return true;
  }

  private static void emit(Line l, List<String> out, Set<String> begun) {
    out.add(l.text);
    if (l.instance != null) {
      begun.add(l.instance);
    }
  }

  /** Reads the fields the merge needs; the line itself is written as it is. */
  private static Line parse(String text, int rank, int number, Map<String, Integer> calls) {
    JsonNode n;
    try {
      n = JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException("rank " + rank + "'s trace, line " + number + ": not JSON: "
          + e.getMessage().lines().findFirst().orElse(""));
    }
    if (n == null || !n.path("r").canConvertToInt() || n.path("r").asInt() != rank) {
      throw new IllegalArgumentException("rank " + rank + "'s trace, line " + number + ": not a line of rank "
          + rank);
    }
    JsonNode m = n.get("m");
    if (!"CollectiveCompletes".equals(n.path("ev").asText()) || m == null || !m.isArray()) {
      return new Line(text, null, null, List.of());
    }
    List<Integer> members = new ArrayList<>();
    m.forEach(x -> members.add(x.asInt()));
    String channel = n.path("ch").asText();
    // the key of validate-trace's k-th-call rule (CollectiveRecord.groupKey), then the call's number
    String key = n.path("grp").asText() + "/" + channel + "/" + members;
    int k = calls.merge(key, 1, Integer::sum);
    return new Line(text, key + "#" + k, channel, List.copyOf(members));
  }
}
