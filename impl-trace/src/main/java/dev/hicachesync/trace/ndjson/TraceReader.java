package dev.hicachesync.trace.ndjson;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.RankFailedRecord;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.TraceEvent;
import dev.hicachesync.trace.TraceFeature;
import dev.hicachesync.trace.TraceFormatException;
import dev.hicachesync.trace.TraceHeader;
import dev.hicachesync.trace.TraceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads a trace strictly: every problem is a {@link TraceFormatException} whose one-line message names the
 * line.
 *
 * <p>The format, one JSON object per line, no blank lines:
 * <pre>
 * {"trace":"hicache-sync-trace/1","DP":1,"CP":2,"TP":1,"PP":1,"Version":"post20460","Policy":"timeout",
 *  "WritePolicy":"write_through","StorageOn":true,"Requests":[1,2,1],"PagesPerKey":1,"DeviceCap":1,
 *  "HostCap":2,"PrefetchThreshold":1,"Features":["storage"]}
 * {"ev":"CollectiveCompletes","r":0,"step":0,"grp":"domain","ch":"sched","m":[0,1],"site":"RECV",
 *  "stage":1,"op":"MAX","val":[1],"res":[1],
 *  "snap":{"dfree":1,"hfree":2,"nwq":0,"nlq":0,"nrv":0,"nrl":0,"wait":0,"run":0}}
 * {"ev":"CollectiveCompletes","r":0,"step":0,"grp":"attn_cp","ch":"sched","m":[0,1],"site":"S1",
 *  "stage":1,"op":"MIN","val":[0],"res":[0],"pop":[0]}
 * {"ev":"RankFailed","r":1,"step":4,"reason":"CollectiveMatching: ..."}
 * </pre>
 * (each object on one line in the file). {@code pop}, {@code snap} (and in it {@code nba}, the backup acks
 * queued, and {@code dig}, the rank's digest: {@link Snapshot}) and the header's {@code Features} (what the
 * run used, {@link TraceFeature}) are optional; every other field is
 * required, and a field the format does not name is an error too (a misspelt optional field must not be
 * silently ignored). Numbers are JSON integers that fit their field: {@code 1.5}, {@code 1e3}, {@code 1.0},
 * a quoted number and a number beyond the field's range are errors naming the field, never rounded.
 */
public final class TraceReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> HEADER_FIELDS = Set.of("trace", "DP", "CP", "TP", "PP", "Version",
      "Policy", "WritePolicy", "StorageOn", "Requests", "PagesPerKey", "DeviceCap", "HostCap",
      "PrefetchThreshold", "Features");
  private static final Set<String> COLLECTIVE_FIELDS = Set.of("ev", "r", "step", "grp", "ch", "m", "site",
      "stage", "op", "val", "res", "pop", "snap");
  private static final Set<String> FAILED_FIELDS = Set.of("ev", "r", "step", "reason");
  private static final Set<String> SNAP_FIELDS = Set.of("dfree", "hfree", "nwq", "nlq", "nrv", "nrl", "wait",
      "run", "nba", "dig", "abr");

  private TraceReader() {}

  /** Reads {@code file}; an unreadable file is reported as a format problem on line 0. */
  public static Trace read(Path file) throws TraceFormatException {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new TraceFormatException(file.toString(), 0, "not UTF-8 text: a trace is UTF-8 JSON lines");
    } catch (IOException e) {
      throw new TraceFormatException(file.toString(), 0, "cannot read the file: " + e.getMessage());
    }
    return parse(file.toString(), lines);
  }

  /** Parses the lines of a trace; {@code name} is used in messages. */
  public static Trace parse(String name, List<String> lines) throws TraceFormatException {
    if (lines.isEmpty()) {
      throw new TraceFormatException(name, 1, "empty file: a trace starts with its header line");
    }
    TraceHeader header = null;
    List<Trace.Line> events = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      int number = i + 1;
      String text = lines.get(i);
      if (text.isBlank()) {
        throw new TraceFormatException(name, number, "blank line");
      }
      JsonNode node;
      try {
        node = JSON.readTree(text);
      } catch (JsonProcessingException e) {
        throw new TraceFormatException(name, number, "not JSON: " + e.getOriginalMessage());
      }
      if (node == null || !node.isObject()) {
        throw new TraceFormatException(name, number, "not a JSON object");
      }
      try {
        if (i == 0) {
          header = header(node);
        } else {
          events.add(new Trace.Line(number, event(node, header)));
        }
      } catch (IllegalArgumentException e) {
        throw new TraceFormatException(name, number, e.getMessage());
      }
    }
    return new Trace(header, events);
  }

  /**
   * Reads {@code file} as {@link #read} does and then checks what TLC does not ({@link TraceConsistency}):
   * at least one event, every {@code step} field, and a header {@code Policy}/{@code StorageOn} that the
   * events do not contradict. What {@code validate-trace} reads.
   */
  public static Trace readRun(Path file) throws TraceFormatException {
    Trace trace = read(file);
    TraceConsistency.check(file.toString(), trace, 1);
    return trace;
  }

  /** The checks {@link #readRun} adds to {@link #read}, for a caller that looks at the header in between. */
  public static void checkRun(Path file, Trace trace) throws TraceFormatException {
    TraceConsistency.check(file.toString(), trace, 1);
  }

  private static TraceHeader header(JsonNode n) {
    if (!n.has("trace")) {
      throw new IllegalArgumentException("the first line must be the header (field 'trace' = \""
          + TraceHeader.FORMAT + "\")" + (n.has("ev") ? ", found an event" : ""));
    }
    if (!TraceHeader.FORMAT.equals(n.get("trace").asText())) {
      throw new IllegalArgumentException("unknown trace format '" + n.get("trace").asText() + "' (expected "
          + TraceHeader.FORMAT + ")");
    }
    onlyFields(n, HEADER_FIELDS, "header");
    List<Integer> requests = new ArrayList<>();
    for (long k : longs(n, "Requests")) {
      if (k < Integer.MIN_VALUE || k > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("field 'Requests' holds " + k + ", out of range");
      }
      requests.add((int) k);
    }
    return new TraceHeader(integer(n, "DP"), integer(n, "CP"), integer(n, "TP"), integer(n, "PP"),
        text(n, "Version"), text(n, "Policy"), text(n, "WritePolicy"), bool(n, "StorageOn"), requests,
        integer(n, "PagesPerKey"), integer(n, "DeviceCap"), integer(n, "HostCap"),
        integer(n, "PrefetchThreshold"), features(n));
  }

  /** The optional {@code Features} field: a list of known feature names. */
  private static List<TraceFeature> features(JsonNode n) {
    List<TraceFeature> out = new ArrayList<>();
    if (!n.has("Features")) {
      return out;
    }
    JsonNode f = n.get("Features");
    if (!f.isArray()) {
      throw new IllegalArgumentException("field 'Features' must be an array of feature names");
    }
    for (JsonNode e : f) {
      TraceFeature feature = e.isTextual() ? TraceFeature.byLabel(e.asText()) : null;
      if (feature == null) {
        throw new IllegalArgumentException("field 'Features' names unknown feature " + e + " (known: "
            + java.util.Arrays.stream(TraceFeature.values()).map(TraceFeature::label).toList() + ")");
      }
      out.add(feature);
    }
    return out;
  }

  private static TraceRecord event(JsonNode n, TraceHeader h) {
    String ev = text(n, "ev");
    TraceEvent event = TraceEvent.byName(ev);
    if (event == null) {
      throw new IllegalArgumentException("unknown event '" + ev + "' (known: "
          + java.util.Arrays.toString(TraceEvent.values()) + ")");
    }
    int rank = integer(n, "r");
    if (rank < 0 || rank >= h.ranks()) {
      throw new IllegalArgumentException("field 'r' = " + rank + " is not a rank of the header's DP " + h.dp() + " x CP "
          + h.cp() + " x TP " + h.tp() + " x PP " + h.pp() + " (0.."
          + (h.ranks() - 1) + ")");
    }
    long step = number(n, "step");
    if (step < 0) {
      throw new IllegalArgumentException("field 'step' must be >= 0, got " + step);
    }
    switch (event) {
      case CollectiveCompletes -> {
        onlyFields(n, COLLECTIVE_FIELDS, ev);
        List<Integer> members = new ArrayList<>();
        for (long m : longs(n, "m")) {
          if (m < 0 || m >= h.ranks()) {
            throw new IllegalArgumentException("field 'm' names rank " + m + ", not a rank of the header's"
                + " topology");
          }
          members.add((int) m);
        }
        List<Long> pop = n.has("pop") ? longs(n, "pop") : null;
        Snapshot snap = null;
        if (n.has("snap")) {
          JsonNode s = n.get("snap");
          if (!s.isObject()) {
            throw new IllegalArgumentException("field 'snap' must be an object");
          }
          onlyFields(s, SNAP_FIELDS, "snap");
          snap = new Snapshot(count(s, "dfree"), count(s, "hfree"), count(s, "nwq"), count(s, "nlq"),
              count(s, "nrv"), count(s, "nrl"), count(s, "wait"), count(s, "run"),
              s.has("nba") ? count(s, "nba") : -1, s.has("dig") ? text(s, "dig") : null,
              s.has("abr") ? count(s, "abr") : -1);
        }
        return new CollectiveRecord(rank, step, text(n, "grp"), text(n, "ch"), members, text(n, "site"),
            integer(n, "stage"), text(n, "op"), longs(n, "val"), longs(n, "res"), pop, snap);
      }
      case RankFailed -> {
        onlyFields(n, FAILED_FIELDS, ev);
        return new RankFailedRecord(rank, step, text(n, "reason"));
      }
      default -> throw new IllegalStateException("unhandled event " + event);
    }
  }

  private static void onlyFields(JsonNode n, Set<String> allowed, String what) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        throw new IllegalArgumentException("unknown field '" + f + "' in " + what);
      }
    }
  }

  private static JsonNode field(JsonNode n, String f) {
    JsonNode v = n.get(f);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException("missing field '" + f + "'");
    }
    return v;
  }

  private static String text(JsonNode n, String f) {
    JsonNode v = field(n, f);
    if (!v.isTextual()) {
      throw new IllegalArgumentException("field '" + f + "' must be a string, got " + v);
    }
    return v.asText();
  }

  private static boolean bool(JsonNode n, String f) {
    JsonNode v = field(n, f);
    if (!v.isBoolean()) {
      throw new IllegalArgumentException("field '" + f + "' must be true or false, got " + v);
    }
    return v.asBoolean();
  }

  private static long number(JsonNode n, String f) {
    JsonNode v = field(n, f);
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException("field '" + f + "' must be an integer, got " + v);
    }
    return v.asLong();
  }

  /** A snapshot field: pages, queue lengths or a request index, never negative. */
  private static long count(JsonNode n, String f) {
    long v = number(n, f);
    if (v < 0) {
      throw new IllegalArgumentException("field '" + f + "' must be >= 0, got " + v);
    }
    return v;
  }

  private static int integer(JsonNode n, String f) {
    long v = number(n, f);
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("field '" + f + "' is out of range: " + v);
    }
    return (int) v;
  }

  private static List<Long> longs(JsonNode n, String f) {
    JsonNode v = field(n, f);
    if (!v.isArray()) {
      throw new IllegalArgumentException("field '" + f + "' must be an array of integers, got " + v);
    }
    List<Long> out = new ArrayList<>();
    for (JsonNode e : v) {
      if (!e.isIntegralNumber() || !e.canConvertToLong()) {
        throw new IllegalArgumentException("field '" + f + "' must hold integers only, got " + e);
      }
      out.add(e.asLong());
    }
    return out;
  }
}
