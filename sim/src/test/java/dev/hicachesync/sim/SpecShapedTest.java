package dev.hicachesync.sim;

import dev.hicachesync.sim.spec.SpecShaped;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import dev.hicachesync.trace.CollectiveRecord;
import dev.hicachesync.trace.ndjson.NdjsonTraceRecorder;
import dev.hicachesync.trace.Trace;
import dev.hicachesync.trace.ndjson.TraceReader;
import dev.hicachesync.trace.TraceRecorder;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The spec-shaped mode without TLC (validate-trace's tests check its traces against the spec): what it
 * refuses, and the shape of what it records.
 */
class SpecShapedTest {

  static SimConfig.Builder shaped(SpecShaped s) {
    return SimConfig.builder().topology(Topology.of(1, 2, 1, 1)).version(ProtocolVersion.MERGED)
        .storage(StorageMode.OFF).steps(30).devicePages(2).hostPages(3).specShaped(s);
  }

  @Test
  void configurationsTheMappingDoesNotCoverAreRefusedInOneLine() {
    SpecShaped s = SpecShaped.seeded(1, 4, 2, 1);
    shaped(s).storage(StorageMode.MEMORY).build(); // storage on with one-page keys is covered
    SpecShaped twoPages = SpecShaped.seeded(1, 4, 2, 2);
    String storage = assertThrows(IllegalArgumentException.class,
        () -> shaped(twoPages).storage(StorageMode.MEMORY).build()).getMessage();
    assertTrue(storage.contains("--pages-per-key 1") && !storage.contains("\n"), storage);
    // PP > 1: TraceHiCachePipeline.tla follows post20460 and merged with storage off, nothing else
    shaped(s).topology(Topology.of(1, 2, 1, 2)).build();
    String ppStorage = assertThrows(IllegalArgumentException.class,
        () -> shaped(s).topology(Topology.of(1, 2, 1, 2)).storage(StorageMode.MEMORY).build()).getMessage();
    assertTrue(ppStorage.contains("with --pp > 1 needs storage off") && !ppStorage.contains("\n"), ppStorage);
    String ppLegacy = assertThrows(IllegalArgumentException.class, () -> shaped(s).topology(Topology.of(1, 2, 1, 2))
        .version(ProtocolVersion.PRE20460).build()).getMessage();
    assertTrue(ppLegacy.contains("with --pp > 1 needs --version post20460 or merged"), ppLegacy);
    for (SpecShaped knobbed : List.of(s.inStep(), new SpecShaped(s.requests(), 1, false, java.util.Set.of(1)))) { // knobs of HiCacheSync.tla only
      String ppKnob = assertThrows(IllegalArgumentException.class,
          () -> shaped(knobbed).topology(Topology.of(1, 2, 1, 2)).build(), knobbed.toString()).getMessage();
      assertTrue(ppKnob.contains("takes neither --trace-loop spec-in-step nor --trace-aborts"), ppKnob);
    }
    assertThrows(IllegalArgumentException.class, () -> new SpecShaped(List.of(0), 1));
  }

  /** A trace of the simulator's own scheduler is no behaviour of the spec: its header says why, by feature. */
  @Test
  void theSimulatorsOwnLoopIsTracedWithFeaturesTheSpecCannotFollow() throws Exception {
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(SimConfig.builder().steps(6).build(), new NdjsonTraceRecorder(out)).run();
    assertNull(r.divergence());
    Trace t = TraceReader.parse("t", out.toString().lines().toList());
    assertEquals(dev.hicachesync.trace.TraceFeature.WORKLOAD_RECV, t.header().unfollowable());
    assertEquals(List.of(), t.header().requests());
    assertTrue(t.events().stream().anyMatch(l -> l.record() instanceof CollectiveRecord c && c.site().equals("S123")
        && c.popped() != null), "sync points recorded with their pops");
  }

  @Test
  void everyRankLogsTheSpecsRecvAndCopiesNeverEndInTheStepThatStartedThem() throws Exception {
    SpecShaped s = new SpecShaped(List.of(1, 2, 1, 3, 1), 1);
    StringWriter out = new StringWriter();
    SimResult r = new Simulator(shaped(s).build(), new NdjsonTraceRecorder(out)).run();
    assertNull(r.divergence());
    Trace t = TraceReader.parse("t", out.toString().lines().toList());
    assertEquals(s.requests(), t.header().requests());
    List<CollectiveRecord> rank0 = t.events().stream().map(Trace.Line::record)
        .filter(x -> x instanceof CollectiveRecord c && c.rank() == 0).map(x -> (CollectiveRecord) x).toList();
    long recvs = rank0.stream().filter(c -> c.site().equals("RECV")).count();
    assertEquals(r.stepsCompleted(), recvs, "one RECV per step");
    // RECV posts the next request index while none waits (the snapshot's wait), 0 otherwise; 1..5 in order.
    long next = 1;
    for (CollectiveRecord c : rank0) {
      if (c.site().equals("RECV")) {
        assertEquals(c.snapshot().waiting() == 0 && next <= 5 ? next : 0, c.value().get(0), c.toString());
        next += c.result().get(0) != 0 ? 1 : 0;
      }
    }
    assertEquals(6, next, "every request was received");
    // Write-through starts when a request finishes (after RECV): the S123 of that step counts at most the
    // writes queued before it (the snapshot's), never the one it just started.
    int finishing = 0;
    for (int i = 0; i + 1 < rank0.size(); i++) {
      CollectiveRecord recv = rank0.get(i);
      CollectiveRecord s123 = rank0.get(i + 1);
      if (recv.site().equals("RECV")) {
        assertEquals("S123", s123.site());
        assertTrue(s123.value().get(0) <= recv.snapshot().writeAcks(), recv + " then " + s123);
        finishing += recv.snapshot().running() != 0 ? 1 : 0;
      }
    }
    assertEquals(5, finishing, "each request finishes after a RECV");
  }

  @Test
  void withoutATraceTheRunIsTheSameRun() {
    SpecShaped s = SpecShaped.seeded(5, 6, 3, 1);
    SimResult plain = new Simulator(shaped(s).build()).run();
    SimResult traced = new Simulator(shaped(s).build(), new NdjsonTraceRecorder(new StringWriter())).run();
    SimResult none = new Simulator(shaped(s).build(), TraceRecorder.NONE).run();
    assertEquals(plain.finalDigests(), traced.finalDigests());
    assertEquals(plain.finalDigests(), none.finalDigests());
    assertEquals(plain.stepsCompleted(), traced.stepsCompleted());
  }

  @Test
  void abortsAreDrawnBySeedAndKeptByTheInStepLoop() {
    SpecShaped s = SpecShaped.seeded(3, 10, 4, 1);
    SpecShaped a = s.withAborts(3);
    assertEquals(a.aborted(), s.withAborts(3).aborted(), "the same seed draws the same aborts");
    assertTrue(!a.aborted().isEmpty() && a.aborted().stream().allMatch(i -> i >= 1 && i <= 10), "" + a.aborted());
    assertEquals(java.util.Set.of(), s.aborted());
    SpecShaped inStep = a.inStep();
    assertTrue(inStep.finishInStep() && !s.finishInStep());
    assertEquals(a.aborted(), inStep.aborted());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SpecShaped(List.of(1, 2), 1, false, java.util.Set.of(3)));
    assertEquals("an aborted request must be one of 1..2, got 3", e.getMessage());
  }
}
