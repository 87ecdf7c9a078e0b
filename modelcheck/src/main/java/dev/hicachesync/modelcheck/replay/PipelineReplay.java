package dev.hicachesync.modelcheck.replay;

import static dev.hicachesync.modelcheck.replay.TraceReads.elements;
import static dev.hicachesync.modelcheck.replay.TraceReads.field;
import static dev.hicachesync.modelcheck.replay.TraceReads.length;
import static dev.hicachesync.modelcheck.replay.TraceReads.number;

import dev.hicachesync.controller.PrefetchPolicy;
import dev.hicachesync.controller.WritePolicy;
import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.CfgFile;
import dev.hicachesync.modelcheck.Verdict;
import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.sim.Divergence;
import dev.hicachesync.sim.SimConfig;
import dev.hicachesync.sim.SimulationRun;
import dev.hicachesync.sim.Simulator;
import dev.hicachesync.sim.StorageMode;
import dev.hicachesync.sim.datapath.DataOptions;
import dev.hicachesync.sim.environment.Fault;
import dev.hicachesync.sim.spec.SpecShaped;
import dev.hicachesync.sync.ProtocolVersion;
import dev.hicachesync.topology.Topology;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Replays a {@code HiCachePipeline.tla} counterexample (PP stages not in scheduler lockstep) on the
 * implementation and compares both sides, as {@link JavaReplay} does for {@code HiCacheSync.tla}.
 *
 * <p>The run is the simulator's spec-shaped PP run (storage as the model's, write-through; every stage meets at RECV, stage
 * 0 decides the event checks and forwards the counts down the pipeline, a later stage pops exactly those,
 * blocking on its own events), with the model's requests, pools and version; the sync mode and knobs become the
 * simulator's faults ({@code PPSync} {@code stage_local}: {@code pp_stage_local_sync}, {@code world_allreduce}:
 * {@code pp_world_allreduce}; {@code host_only}: {@code
 * unsynced_loading_check}, loading_check's all_reduce and forward skipped; {@code uneven_capacity}: {@code
 * larger_host_pool_on_rank0}; {@code local_clock}: {@code local_lru_clock}; {@code pf_shared_group}: {@code
 * shared_prefetch_groups}; bug B7: {@code pp_stage_local_prefetch_hits}, B7tail: {@code early_tail_release}), and
 * {@link PipelineEnvironment} makes the counterexample's rank-local choices (each rank's GPU copies, its clock, its
 * S7 hits, where its prefetch thread passes, its timeouts). At every RECV where the ranks are
 * parked, each rank's pools, ack queues, waiting and running request and key residency are compared with the
 * spec's log record of the step just ended (what TreeAgreement, AckAgreement and AllocAgreement compare); the
 * violation is compared by name and step as {@link JavaReplay#judge} does.
 */
public final class PipelineReplay {

  /** The MC module of the pipeline models. */
  public static final String MODULE = "MCHiCachePipeline";

  /** Knobs of the spec and the simulator's fault of the same code path. */
  private static final Map<String, Fault> KNOB_FAULTS = Map.of("uneven_capacity", Fault.LARGER_HOST_POOL_ON_RANK0,
      "local_clock", Fault.LOCAL_LRU_CLOCK, "pf_shared_group", Fault.SHARED_PREFETCH_GROUPS);

  /** Bugs of the spec and the simulator's fault of the same code path. */
  private static final Map<String, Fault> BUG_FAULTS = Map.of("B7", Fault.PP_STAGE_LOCAL_PREFETCH_HITS,
      "B7tail", Fault.EARLY_TAIL_RELEASE);

  /** Knobs whose only effect here is on which other knob applies. */
  private static final Set<String> HANDLED_KNOBS = Set.of("host_only", "host_only_pp_guard");

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private PipelineReplay() {}

  /** The model's {@code PPSync} constant, read from its cfg ({@code forward} when the cfg leaves it out). */
  public static String ppSync(Path cfg) throws BadInputException {
    for (String line : CfgFile.read(cfg).constants()) {
      String[] kv = line.split("=", 2);
      if (kv.length == 2 && kv[0].trim().equals("PPSync")) {
        return kv[1].trim().replace("\"", "");
      }
    }
    return "forward";
  }

  /** The reasons the implementation cannot run a pipeline model with constants {@code k}, whatever the trace. */
  public static List<String> unreplayable(ModelConstants k, String ppSync) {
    List<String> why = new ArrayList<>();
    if (k.dp() != 1) {
      why.add("pipeline replays cover one sync domain (DP 1), not DP " + k.dp());
    }
    for (String bug : k.bugs()) {
      if (BUG_FAULTS.containsKey(bug)) {
        continue;
      }
      why.add(bug + " has no fault switch in the pipeline replay");
    }
    if (hostOnlySkips(k) && !k.version().equals("post20460")) {
      why.add("knob host_only under version " + k.version() + ": the skip applies to a later stage's forwarded load"
          + " count only, which the implementation's fused S123 has no switch for");
    }
    for (String knob : k.knobs()) {
      if (KNOB_FAULTS.containsKey(knob) || HANDLED_KNOBS.contains(knob)) {
        continue;
      }
      why.add(switch (knob) {
        case "pf_shared_group" -> "knob pf_shared_group needs the prefetch thread's S7 (PrefetchThreadQueries),"
            + " which the storage-off PP run never makes";
        case "sync_shared_group" -> "knob sync_shared_group (SyncThreadPosts: the prefetch sync thread's per-batch"
            + " MIN, S5B, on the scheduler's attn_cp group object): the counterexample ends a batch read"
            + " (IoEndsBatch, which the pipeline replay does not drive: its reads stay in flight to the trace's end)"
            + " and the rank's sync thread then posts S5B beside its scheduler's S123 on that group, where its peer"
            + " posts S123 alone; the implementation's " + k.version() + " version has no per-batch MIN (S5B is a"
            + " spec-only sync point; its completion sync, fault shared_completion_groups, is version unified's), so"
            + " no S5B call exists to pair with a peer's S123";
        case "local_pool_sizes" -> poolFaults(k) != null ? null : "knob local_pool_sizes with pools "
            + k.deviceCaps() + " (device) and " + k.hostCaps() + " (host) per rank: the simulator sizes every rank's"
            + " device pools alike or a later stage's twice stage 0's (fault larger_device_pool_on_later_stages), and"
            + " only rank 0's host pool one page larger (fault larger_host_pool_on_rank0)";
        default -> "knob " + knob + " has no switch in the pipeline replay";
      });
    }
    why.removeIf(java.util.Objects::isNull);
    return why;
  }

  /**
   * The faults of the pools: {@link JavaReplay#poolFaults}'s, or a later stage's device pool twice stage 0's with
   * equal host pools (MCUnequalStagePools); null when the simulator cannot size them so.
   */
  static Set<Fault> poolFaults(ModelConstants k) {
    Set<Fault> same = JavaReplay.poolFaults(k);
    if (same != null) {
      return same;
    }
    int stage = k.cp() * k.tp();
    List<Integer> dev = k.deviceCaps();
    boolean laterDouble = k.pp() > 1 && k.hostCaps().stream().distinct().count() == 1;
    for (int r = 0; r < dev.size() && laterDouble; r++) {
      laterDouble = dev.get(r) == (r < stage ? k.deviceCap() : 2 * k.deviceCap());
    }
    return laterDouble ? Set.of(Fault.LARGER_DEVICE_POOL_ON_LATER_STAGES) : null;
  }

  /** HiCachePipeline's HostOnlySkip: host_only, unless its PP guard keeps the sync with stages. */
  private static boolean hostOnlySkips(ModelConstants k) {
    return k.knobs().contains("host_only") && !(k.knobs().contains("host_only_pp_guard") && k.pp() > 1);
  }

  /**
   * Replays {@code trace} (the counterexample of {@code schedule}, verdict {@code verdict}) on the implementation
   * configured as {@code model} ({@code constants}, sync mode {@code ppSync}); {@code invariants} are the schedule
   * cfg's, in its order.
   */
  public static ReplayReport run(String model, ModelConstants constants, String ppSync, String schedule,
      ErrorTrace trace, Verdict verdict, List<String> invariants) {
    boolean twin = !model.equals(schedule);
    int ranks = constants.cp() * constants.tp() * constants.pp();
    PipelineSchedule s = PipelineSchedule.of(trace, ranks, constants.version().equals("post20460"),
        constants.pagesPerKey());
    int violated = violationStep(s, verdict);
    String specSide = verdict + " at state " + trace.length() + ", step " + (violated - 1);
    List<String> why = unreplayable(constants, ppSync);
    s.undriven().forEach(a -> why.add("action " + a + " has no seam in the pipeline replay"));
    if (!why.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.NOT_REPLAYABLE, specSide, "not run", List.of(),
          String.join("; ", why));
    }
    Set<Fault> faults = EnumSet.noneOf(Fault.class);
    if (ppSync.equals("stage_local") && constants.pp() > 1) {
      faults.add(Fault.PP_STAGE_LOCAL_SYNC);
    }
    if (ppSync.equals("world_allreduce") && constants.pp() > 1) {
      faults.add(Fault.PP_WORLD_ALLREDUCE);
    }
    if (hostOnlySkips(constants)) {
      faults.add(Fault.UNSYNCED_LOADING_CHECK);
    }
    constants.bugs().stream().filter(BUG_FAULTS::containsKey).forEach(b -> faults.add(BUG_FAULTS.get(b)));
    constants.knobs().stream().filter(KNOB_FAULTS::containsKey).forEach(k -> faults.add(KNOB_FAULTS.get(k)));
    faults.addAll(poolFaults(constants));
    SimConfig cfg = SimConfig.builder()
        .topology(Topology.of(1, constants.cp(), constants.tp(), constants.pp()))
        .version(ProtocolVersion.parse(constants.version()))
        .prefetchPolicy(PrefetchPolicy.parse(constants.policy()))
        .writePolicy(WritePolicy.WRITE_THROUGH)
        .storage(constants.storageOn() ? StorageMode.MEMORY : StorageMode.OFF)
        // with storage: the schedule inserts no part of a key, and this replay compares the release and revoke
        // queues as HiCachePipeline.tla's one (SpecShaped#wholeKeyHits)
        .specShaped(constants.storageOn() ? MultiPageKeys.specShaped(constants).withWholeKeyHits()
            : MultiPageKeys.specShaped(constants))
        .devicePages(constants.deviceCap())
        .hostPages(constants.hostCaps().stream().mapToInt(Integer::intValue).min().orElse(constants.hostCap()))
        .faults(faults)
        .timing(new PipelineEnvironment(s))
        .data(DataOptions.OFF)
        .collectiveTimeout(TIMEOUT)
        .steps(Math.max(s.lastStep() + 8L, 3L * constants.requests().size() + 8))
        .seed(0)
        .build();
    List<String> lines = new ArrayList<>(describe(s));
    if (!faults.isEmpty()) {
      lines.add(0, "faults: " + String.join(", ", faults.stream().map(f -> f.name().toLowerCase(Locale.ROOT)).toList()));
    }
    String partWays = "";
    SimulationRun.Verdict v;
    try (SimulationRun run = Simulator.open(cfg)) {
      v = run.verdict();
      int compared = 0;
      for (int points = 0; points < 10_000 && v.ok() && !v.ended(); points++) {
        int step = JavaReplay.atRecv(run);
        // a fixed twin follows the bug's logs only until the bug bites: its fix decides otherwise from there
        if (step > compared && (!twin || step < violated)) {
          compared = step;
          partWays = compare(step, s, run, constants, lines);
          if (!partWays.isEmpty()) {
            break;
          }
        }
        v = run.advance();
      }
    }
    Divergence d = v.divergence();
    String implSide = d != null ? JavaReplay.describe(d)
        : v.crash() != null ? "crashed: " + v.crash() : "no violation (" + v.points() + " lockstep points)";
    if (d != null) { // what the rank saw: a mismatch names both calls, a circular wait the fabric's timeout
      lines.add("implementation: " + d.viewA().lines().findFirst().orElse("").trim());
    }
    if (!partWays.isEmpty()) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          JavaReplay.IMPL_WRONG + "on the spec's schedule its state " + partWays);
    }
    if (v.crash() != null) {
      return new ReplayReport(model, schedule, ReplayReport.Outcome.PART_WAYS, specSide, implSide, lines,
          JavaReplay.IMPL_WRONG + "it crashed: " + v.crash());
    }
    return JavaReplay.judge(model, schedule, specSide, implSide, lines, twin, verdict, d, violated - 1, invariants);
  }

  /**
   * The spec step (from 1) of the violation: for an invariant over the per-step logs, the first step whose
   * records differ between two ranks in what it compares; for PrefetchAgreement (a decision of the prefetch thread,
   * between steps) the step after the trace's last one; else the trace's last step.
   */
  static int violationStep(PipelineSchedule s, Verdict verdict) {
    List<String> fields = switch (verdict.kind() == Verdict.Kind.DEADLOCK ? "" : verdict.property()) {
      case "TreeAgreement" -> List.of("tree", "nid", "wait", "run");
      case "AckAgreement" -> List.of("pop", "wq", "lq");
      case "AllocAgreement" -> List.of("dused", "hused");
      default -> List.of();
    };
    if (!fields.isEmpty()) {
      for (int k = 0; k < s.lastStep(); k++) {
        for (int a = 0; a < s.ranks(); a++) {
          for (int b = a + 1; b < s.ranks(); b++) {
            if (k < s.log(a).size() && k < s.log(b).size()) {
              for (String f : fields) {
                if (!java.util.Objects.equals(field(s.log(a).get(k), f), field(s.log(b).get(k), f))) {
                  return k + 1;
                }
              }
            }
          }
        }
      }
    }
    // PrefetchAgreement: the prefetch thread decides between its rank's steps; the implementation's pass after
    // the rank's step k runs at the boundary it counts as its step k (the spec's k + 1, from 1). HostSlotSafety:
    // the spec breaks it where a slot in use leaves its owner (onto the release queue); the implementation's
    // slot ledger where the slot is freed, at the next step's S3.
    boolean nextStep = verdict.kind() != Verdict.Kind.DEADLOCK
        && Set.of("PrefetchAgreement", "HostSlotSafety").contains(verdict.property());
    return Math.max(1, s.lastStep() + (nextStep ? 1 : 0));
  }

  /** What the schedule makes the code do, one line per rank and kind. */
  private static List<String> describe(PipelineSchedule s) {
    List<String> out = new ArrayList<>();
    for (int r = 0; r < s.ranks(); r++) {
      for (String kind : List.of("write", "load")) {
        List<PipelineSchedule.Copy> copies = kind.equals("write") ? s.writes(r) : s.loads(r);
        if (!copies.isEmpty()) {
          out.add("schedule rank " + r + " " + kind + " copies:" + String.join("", copies.stream()
              .map(c -> " [issued in step " + (c.issued() - 1) + ", " + (c.seenDone() < 0 ? "not done in the trace"
                  : "done from step " + (c.seenDone() - 1)) + "]").toList()));
        }
      }
      if (s.skewedFrom(r) > 0) {
        out.add("schedule rank " + r + " LRU clock skewed from step " + (s.skewedFrom(r) - 1));
      }
      if (!s.hits(r).isEmpty()) {
        out.add("schedule rank " + r + " storage hits at S7 (leading pages, in order): " + s.hits(r));
      }
      for (Map.Entry<Integer, Integer> t : s.timeouts(r).entrySet()) {
        out.add("schedule rank " + r + " prefetch of request " + t.getKey() + " timed out from step " + (t.getValue() - 1));
      }
    }
    return out;
  }

  /** At the RECV of step {@code step}: each rank against its spec log record of step {@code step}; the first difference, or "". */
  private static String compare(int step, PipelineSchedule s, SimulationRun run, ModelConstants k, List<String> lines) {
    String first = "";
    for (int r = 0; r < s.ranks(); r++) {
      if (step > s.log(r).size() || run.view(r).ended()) {
        continue;
      }
      SpecSchedule.Observed spec = observed(s.log(r).get(step - 1), r, k, s.heldPastHit(r, step));
      SpecSchedule.Observed impl = JavaReplay.observed(run, r, k);
      boolean same = impl.equals(spec);
      lines.add("step " + step + " RECV rank " + r + ": spec " + spec + " | impl " + impl + (same ? "" : "  <- differs"));
      if (!same && first.isEmpty()) {
        first = "at step " + step + "'s RECV rank " + r + " shows " + impl + " in the implementation, " + spec
            + " in the spec (its log record of the step before)";
      }
    }
    return first;
  }

  /**
   * A spec log record (LogRec) as {@link SpecSchedule.Observed}: free pools from the usage and the rank's pools;
   * the host slots past an S7 hit the spec still holds ({@code heldPastHit}) count as free, as the
   * implementation has freed them ({@link PipelineSchedule#heldPastHit}).
   */
  private static SpecSchedule.Observed observed(TlaValue rec, int r, ModelConstants k, int heldPastHit) {
    TlaValue tree = field(rec, "tree");
    List<TlaValue> nodes = elements(tree);
    List<String> residency = new ArrayList<>();
    for (int key : k.requests().stream().distinct().sorted().toList()) {
      TlaValue n = tree instanceof TlaValue.Fn f ? f.mapping().get(new TlaValue.Int(key))
          : key - 1 < nodes.size() ? nodes.get(key - 1) : null;
      // hp + hw: the implementation gives a node its host pages when its write-through starts (hw: being written)
      residency.add(SpecSchedule.residency(key, field(n, "dev") instanceof TlaValue.Bool dev && dev.value(),
          number(field(n, "hp")) + number(field(n, "hw"))));
    }
    return new SpecSchedule.Observed(k.deviceCaps().get(r) - number(field(rec, "dused")),
        k.hostCaps().get(r) - number(field(rec, "hused")) + heldPastHit, length(field(rec, "wq")), length(field(rec, "lq")),
        number(field(rec, "wait")), number(field(rec, "run")), residency);
  }
}
