package dev.hicachesync.modelcheck.validate;

import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.Snapshot;
import dev.hicachesync.trace.TraceHeader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Turns the {@code hist} of a {@code TraceGenHiCacheSync} behaviour into the NDJSON lines the
 * implementation would log: one line per member per collective, members in a seeded order (so that
 * merging is exercised), {@code pop} only where logged (a sync point's last stage), {@code snap} at RECV.
 */
final class SpecTraces {

  private SpecTraces() {}

  static List<String> ndjson(TraceHeader header, TlaValue hist, long seed) {
    Random random = new Random(seed);
    List<String> lines = new ArrayList<>();
    lines.add(NdjsonTraceRecorder.line(header));
    Map<Integer, Long> recvs = new HashMap<>();
    for (TlaValue entry : elements(hist)) {
      Map<String, TlaValue> f = ((TlaValue.Rec) entry).fields();
      String site = str(f.get("site"));
      List<Integer> members = new ArrayList<>();
      for (TlaValue m : ((TlaValue.SetValue) f.get("m")).elements()) {
        members.add((int) num(m));
      }
      Collections.sort(members);
      List<Integer> order = new ArrayList<>(members);
      Collections.shuffle(order, random);
      List<Long> res = longs(f.get("res"));
      for (int r : order) {
        long step = recvs.getOrDefault(r, 0L);
        if (site.equals("RECV")) {
          recvs.put(r, step + 1);
        }
        List<Long> pop = longs(at(f.get("pop"), r));
        Snapshot snap = null;
        if (site.equals("RECV")) {
          Map<String, TlaValue> s = ((TlaValue.Rec) at(f.get("snap"), r)).fields();
          snap = new Snapshot(num(s.get("dfree")), num(s.get("hfree")), num(s.get("nwq")), num(s.get("nlq")),
              num(s.get("nrv")), num(s.get("nrl")), num(s.get("wait")), num(s.get("run")));
        }
        lines.add(NdjsonTraceRecorder.line(new CollectiveRecord(r, step, str(f.get("grp")), str(f.get("ch")),
            members, site, (int) num(f.get("stage")), str(f.get("op")), longs(at(f.get("val"), r)), res,
            pop.isEmpty() ? null : pop, snap)));
      }
    }
    return lines;
  }

  /** f[r] for a function printed as {@code (0 :> x @@ 1 :> y)} or as a tuple (domain 1..n). */
  private static TlaValue at(TlaValue f, int r) {
    if (f instanceof TlaValue.Fn fn) {
      return fn.mapping().get(new TlaValue.Int(r));
    }
    return ((TlaValue.Tuple) f).elements().get(r - 1);
  }

  private static List<TlaValue> elements(TlaValue v) {
    if (v instanceof TlaValue.Tuple t) {
      return t.elements();
    }
    if (v instanceof TlaValue.Fn fn && fn.mapping().isEmpty()) {
      return List.of();
    }
    throw new IllegalArgumentException("not a sequence: " + v.format());
  }

  private static List<Long> longs(TlaValue v) {
    List<Long> out = new ArrayList<>();
    for (TlaValue e : elements(v)) {
      out.add(num(e));
    }
    return out;
  }

  private static long num(TlaValue v) {
    return ((TlaValue.Int) v).value();
  }

  private static String str(TlaValue v) {
    return ((TlaValue.Str) v).value();
  }
}
