package dev.hicachesync.modelcheck;

import dev.hicachesync.topology.Topology;
import java.util.List;

/**
 * The specification module an ad-hoc model runs, chosen by its topology, with what the module can
 * express.
 *
 * <p>Why three: {@code HiCacheSync} runs every rank of a sync domain in scheduler lockstep, so
 * its PP stages have no PP sync at all and a {@code --pp 2} model there reports a false
 * {@code AckAgreement} violation; {@code HiCachePipeline} lets stages run apart with the PP sync of
 * #27285 (forwarded counts); {@code HiCacheReplicas} models several DP replicas with independent
 * traffic and group creation. Each module's template ({@code adhoc*.cfg.template} in the models
 * directory) is the one place that names its constants and bounds.
 */
public enum AdhocModule {
  /** One sync domain in lockstep: {@code --pp 1 --dp 1}. */
  SYNC("HiCacheSync", "MCHiCacheSync", "adhoc.cfg.template", ProtocolVersions.ALL, ProtocolVersions.POLICIES,
      "best_effort", 4, Integer.MAX_VALUE, 5),
  /**
   * PP stages at their own speeds ({@code --pp} &gt; 1); the PP sync is #27285's forwarding. The
   * default policy is {@code timeout}, the module's nearest to {@code best_effort} (it has no
   * {@code best_effort}).
   */
  PIPELINE("HiCachePipeline", "MCHiCachePipeline", "adhoc-pipeline.cfg.template", List.of("post20460", "merged"),
      List.of("wait_complete", "timeout"), "timeout", 4, 4, 4),
  /**
   * Several DP replicas ({@code --dp} &gt; 1): S7 runs in sequence with the step, as
   * {@code wait_complete} does; the cache group is the replica's attn_cp then attn_tp groups.
   */
  REPLICAS("HiCacheReplicas", "MCHiCacheReplicas", "adhoc-replicas.cfg.template",
      List.of("pre20460", "post20460", "merged"), List.of("wait_complete"), "wait_complete", 4, Integer.MAX_VALUE,
      Integer.MAX_VALUE),
  /**
   * Version {@code unified} (the default when none is named): SGLang's unified radix cache, one sync
   * domain of one stage ({@code --pp 1 --dp 1}); the default policy is {@code timeout}, the only one
   * with S4 (#36425).
   */
  UNIFIED("HiCacheUnified", "MCHiCacheUnified", "adhoc-unified.cfg.template", List.of(ProtocolVersions.UNIFIED),
      ProtocolVersions.POLICIES, "timeout", 4, Integer.MAX_VALUE, Integer.MAX_VALUE);

  private final String spec;
  private final String mcModule;
  private final String template;
  private final List<String> versions;
  private final List<String> policies;
  private final String defaultPolicy;
  private final int exhaustiveRanks;
  private final int largeRanks;
  private final int reducedFrom;

  /**
   * @param exhaustiveRanks the most ranks whose safety part is searched exhaustively by default: the largest
   *     size whose search, with the bounds and reductions below, finishes in about a minute on a 2-core machine
   *     (docs/reference/measurements.md); larger models are simulated unless asked otherwise
   * @param largeRanks from this many ranks the bounds shrink (HiCachePipeline: one page per key with storage)
   * @param reducedFrom from this many ranks the safety part runs the module's {@code ReducedSpec}, as the
   *     catalogue's largest models do: HiCachePipeline with storage on (its reduction is about the storage
   *     threads; b7_fixed_cp2), HiCacheSync with two requests or more (merged_cp4tp2_req2)
   */
  AdhocModule(String spec, String mcModule, String template, List<String> versions, List<String> policies,
      String defaultPolicy, int exhaustiveRanks, int largeRanks, int reducedFrom) {
    this.spec = spec;
    this.mcModule = mcModule;
    this.template = template;
    this.versions = versions;
    this.policies = policies;
    this.defaultPolicy = defaultPolicy;
    this.exhaustiveRanks = exhaustiveRanks;
    this.largeRanks = largeRanks;
    this.reducedFrom = reducedFrom;
  }

  /**
   * The most ranks searched exhaustively by default with these bounds (see the constructor): HiCachePipeline
   * without storage runs B6's two-key bounds unreduced (b6_fixed_cp2tp2 takes about ten minutes at 4 ranks), so
   * 2 ranks; HiCacheSync with three requests, 2 ranks (two requests at 4 ranks take about 40 s, the third
   * multiplies the states).
   */
  public int exhaustiveRanks(boolean storage, int requests) {
    return switch (this) {
      case PIPELINE -> storage ? exhaustiveRanks : 2;
      case SYNC -> requests <= 2 ? exhaustiveRanks : 2;
      default -> exhaustiveRanks;
    };
  }

  /** From this many ranks the module's bounds shrink. */
  int largeRanks() {
    return largeRanks;
  }

  /**
   * From this many ranks the safety part runs {@code ReducedSpec} (no fairness: safety only; a violation it
   * finds is a real one, every one that {@code Spec} reaches it reaches too: docs/explanation/spec-design.md).
   */
  boolean reduced(int ranks, boolean storage, int requests) {
    return switch (this) {
      case SYNC -> ranks >= reducedFrom && requests >= 2;
      case PIPELINE -> ranks >= reducedFrom && storage;
      default -> false;
    };
  }

  /**
   * The VIEW of the safety part: the rank symmetry of the catalogue's models ({@code RankSymmetryView}, or
   * HiCachePipeline's {@code LiveSymmetryView} with its reduction), sound here because an ad-hoc model has
   * equal pools and no knob that singles out a rank; null where the module has none.
   */
  public String safetyView(boolean reduced) {
    return switch (this) {
      case SYNC, UNIFIED -> "RankSymmetryView";
      case PIPELINE -> reduced ? "LiveSymmetryView" : "RankSymmetryView";
      default -> null;
    };
  }

  /**
   * The most ranks whose liveness part (every state of {@code Spec}, no view: TLC's liveness checking is
   * unsound under one) is searched exhaustively by default: HiCacheUnified's plain state space from 3 ranks is
   * far larger than the orbits its safety part searches under {@code RankSymmetryView}
   * (docs/reference/measurements.md), so its liveness is simulated above 2 ranks unless asked otherwise.
   */
  int livenessExhaustiveRanks() {
    return this == UNIFIED ? 2 : Integer.MAX_VALUE;
  }

  /**
   * The module TLC runs for the exhaustive safety part: HiCacheSync's {@code ReducedSpec} lives in a module of
   * its own, as HiCacheUnified's {@code RankSymmetryView} does (MCHiCacheUnifiedView.tla: new definitions in
   * MCHiCacheUnified would change the counterexamples TLC reports for the catalogue's unified bug models).
   */
  String safetyModule(boolean reduced) {
    return switch (this) {
      case SYNC -> reduced ? "MCHiCacheSyncReduced" : mcModule;
      case UNIFIED -> "MCHiCacheUnifiedView";
      default -> mcModule;
    };
  }

  /** Whether the template takes {@code ${REQUESTS}}. */
  boolean hasRequestBound() {
    return this != REPLICAS;
  }

  /** Requests by default: one (two in HiCachePipeline without storage: B6's eviction needs a second key). */
  int defaultRequests(boolean storage) {
    return this == PIPELINE && !storage ? 2 : 1;
  }

  /**
   * The module for {@code topology}.
   *
   * @throws BadInputException for PP and DP both above 1 (no module has both)
   */
  public static AdhocModule of(Topology topology) throws BadInputException {
    if (topology.pp() > 1 && topology.dp() > 1) {
      throw new BadInputException("no module checks --pp > 1 with --dp > 1: HiCachePipeline has one DP replica,"
          + " HiCacheReplicas one PP stage; check them one at a time");
    }
    return topology.pp() > 1 ? PIPELINE : topology.dp() > 1 ? REPLICAS : SYNC;
  }

  /**
   * The module for {@code topology} and {@code version}: {@link #UNIFIED} for version {@code unified},
   * else {@link #of(Topology)}.
   *
   * @throws BadInputException for {@code unified} with PP or DP above 1 (HiCacheUnified has one stage
   *     and one replica), or as {@link #of(Topology)}
   */
  public static AdhocModule of(Topology topology, String version) throws BadInputException {
    if (!ProtocolVersions.UNIFIED.equals(version)) {
      return of(topology);
    }
    if (topology.pp() > 1 || topology.dp() > 1) {
      throw new BadInputException("version 'unified' (the default) is modelled for --dp 1 --pp 1 only"
          + " (HiCacheUnified.tla; its PP questions are the catalogue's MCHiCacheUnifiedPP and"
          + " MCHiCacheUnifiedPipeline models, check --model unipp_...); give"
          + " --version merged or post20460 for --dp " + topology.dp() + " --pp " + topology.pp());
    }
    return UNIFIED;
  }

  /**
   * Refuses what this module cannot express.
   *
   * @throws BadInputException in one line naming the module and the value it lacks
   */
  void checkExpressible(Topology topology, String version, String policy) throws BadInputException {
    String why = " (" + spec + ".tla, chosen by " + (this == PIPELINE ? "--pp " + topology.pp()
        : this == REPLICAS ? "--dp " + topology.dp() : this == UNIFIED ? "--version unified"
        : "--pp 1 --dp 1") + ")";
    if (!versions.contains(version)) {
      throw new BadInputException("version '" + version + "' cannot be checked here: the module models "
          + String.join(" and ", versions) + why);
    }
    if (this == REPLICAS && version.equals("pre20460") && topology.cp() > 1) {
      // pre20460 reduces over attn_tp only (B1); the replicas module always syncs the CP ranks.
      throw new BadInputException("version 'pre20460' with --cp > 1 cannot be checked here: the module always"
          + " reduces over attn_cp then attn_tp" + why);
    }
    if (!policies.contains(policy)) {
      throw new BadInputException("policy '" + policy + "' cannot be checked here: the module models "
          + String.join(" and ", policies) + why);
    }
  }

  /** The specification module, e.g. {@code HiCachePipeline}. */
  public String spec() {
    return spec;
  }

  /** The module TLC runs (bounds on top of {@link #spec()}). */
  public String mcModule() {
    return mcModule;
  }

  /** The cfg template's file name in the models directory. */
  public String template() {
    return template;
  }

  /** The policy when {@code --policy} is not given. */
  public String defaultPolicy() {
    return defaultPolicy;
  }
}
