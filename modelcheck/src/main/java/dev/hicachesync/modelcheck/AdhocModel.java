package dev.hicachesync.modelcheck;

import dev.hicachesync.topology.Topology;
import java.util.Locale;
import java.util.Map;

/**
 * A model built on the command line from the template of its {@link AdhocModule} (chosen by the
 * topology): the template's {@code ${DP}}, {@code ${CP}}, {@code ${TP}}, {@code ${PP}},
 * {@code ${VERSION}}, {@code ${POLICY}}, {@code ${STORAGE}} (TRUE/FALSE), {@code ${REQUESTS}} (the
 * number of requests) and {@code ${PAGES}} (pages per key) are replaced; a template may leave out those its
 * module has no constant for.
 *
 * @param topology parallel sizes
 * @param version protocol version
 * @param policy prefetch policy
 * @param storage whether the storage tier is on
 * @param requests requests in the stream (chosen by module and size unless given)
 */
public record AdhocModel(Topology topology, String version, String policy, boolean storage, int requests) {

  /** Requests an ad-hoc stream may have: the model modules define streams of one to three. */
  public static final int MAX_REQUESTS = 3;

  /**
   * Ranks an ad-hoc model may have (with {@code --cp 1000000} TLC parsed for minutes before any check); the
   * largest catalogued model that finishes has 4.
   */
  public static final int MAX_RANKS = 16;

  /**
   * Validates the values and what the chosen module can express.
   *
   * @param version the protocol version, or null for {@link ProtocolVersions#ADHOC_DEFAULT}
   * @param policy the prefetch policy, or null for the module's default
   * @param storage on or off, or null for on
   * @throws BadInputException naming the first bad value
   */
  public static AdhocModel of(int dp, int cp, int tp, int pp, String version, String policy, String storage)
      throws BadInputException {
    return of(dp, cp, tp, pp, version, policy, storage, null);
  }

  /**
   * As {@link #of(int, int, int, int, String, String, String)}, with the number of requests.
   *
   * @param requests 1 to {@value #MAX_REQUESTS}, or null for the module's default at this size
   * @throws BadInputException naming the first bad value
   */
  public static AdhocModel of(int dp, int cp, int tp, int pp, String version, String policy, String storage,
      Integer requests) throws BadInputException {
    Map<String, Integer> sizes = Map.of("--dp", dp, "--cp", cp, "--tp", tp, "--pp", pp);
    for (String flag : new String[] {"--dp", "--cp", "--tp", "--pp"}) {
      if (sizes.get(flag) < 1) {
        throw new BadInputException(flag + " must be at least 1 (got " + sizes.get(flag) + ")");
      }
    }
    long world = (long) dp * cp * tp * pp;
    if (world > MAX_RANKS) {
      throw new BadInputException("check accepts at most " + MAX_RANKS + " ranks (dp x cp x tp x pp) for an ad-hoc "
          + "model, got " + dp + " x " + cp + " x " + tp + " x " + pp + "; TLC's state space grows exponentially "
          + "with the ranks");
    }
    if (version == null) {
      version = ProtocolVersions.ADHOC_DEFAULT; // the protocol SGLang runs today
    }
    if (!ProtocolVersions.ADHOC.contains(version)) {
      throw new BadInputException("unknown version '" + version + "': one of " + String.join(", ", ProtocolVersions.ADHOC));
    }
    if (policy != null && !ProtocolVersions.POLICIES.contains(policy)) {
      throw new BadInputException("unknown policy '" + policy + "': one of " + String.join(", ", ProtocolVersions.POLICIES));
    }
    String s = storage == null ? "on" : storage.toLowerCase(Locale.ROOT);
    if (!s.equals("on") && !s.equals("off")) {
      throw new BadInputException("--storage must be on or off (got '" + storage + "')");
    }
    Topology topology = new Topology(dp, cp, tp, pp);
    AdhocModule module = AdhocModule.of(topology, version);
    String chosenPolicy = policy == null ? module.defaultPolicy() : policy;
    module.checkExpressible(topology, version, chosenPolicy);
    boolean on = s.equals("on");
    if (requests != null && (requests < 1 || requests > MAX_REQUESTS)) {
      throw new BadInputException("--requests must be 1 to " + MAX_REQUESTS + " (got " + requests + ")");
    }
    if (requests != null && !module.hasRequestBound()) {
      throw new BadInputException("--requests cannot be set for " + module.spec() + ".tla: its traffic is fixed"
          + " (MCTrafficAdhoc)");
    }
    int chosen = requests != null ? requests : module.defaultRequests(on);
    return new AdhocModel(topology, version, chosenPolicy, on, chosen);
  }

  /** Ranks in the model (dp x cp x tp x pp). */
  public int ranks() {
    return topology.dp() * topology.cp() * topology.tp() * topology.pp();
  }

  /** Pages per key: two with storage in HiCachePipeline below its large size (a partial prefetch), else one. */
  public int pages() {
    return module() == AdhocModule.PIPELINE && storage && ranks() < AdhocModule.PIPELINE.largeRanks() ? 2 : 1;
  }

  /**
   * The most ranks whose safety part is searched exhaustively by default with this model's module and bounds
   * (a larger model is simulated unless asked otherwise).
   */
  public int exhaustiveRanks() {
    return module().exhaustiveRanks(storage, requests);
  }

  /**
   * Whether the liveness part (every state of {@code Spec}, without the safety part's reduction or view) is
   * searched exhaustively by default: not where the safety part is reduced, nor above the module's size for it
   * ({@link AdhocModule#livenessExhaustiveRanks}).
   */
  public boolean livenessFits() {
    return !reduced() && ranks() <= module().livenessExhaustiveRanks();
  }

  /** Whether the exhaustive search uses the module's reduced specification (see {@link AdhocModule#reduced}). */
  public boolean reduced() {
    return module().reduced(ranks(), storage, requests);
  }

  /** The bounds this model runs with, in words, e.g. {@code 1 request, 2 pages per key}. */
  public String bounds() {
    AdhocModule m = module();
    String req = m.hasRequestBound() ? requests + (requests == 1 ? " request" : " requests") : "the module's fixed traffic";
    return req + (m == AdhocModule.PIPELINE ? ", " + pages() + (pages() == 1 ? " page" : " pages") + " per key" : "");
  }

  /** The module this model runs (by its topology). */
  public AdhocModule module() {
    try {
      return AdhocModule.of(topology, version);
    } catch (BadInputException e) {
      throw new IllegalStateException("of() refuses this topology: " + topology, e);
    }
  }

  /**
   * The run directory's name, e.g. {@code adhoc_merged_1-2-1-1_best_effort_storage}, with {@code _reqK} when the
   * requests are not the module's default.
   */
  public String name() {
    return "adhoc_" + version + "_" + topology.sizes().replace(',', '-') + "_" + policy + (storage ? "_storage" : "_nostorage")
        + (requests == module().defaultRequests(storage) ? "" : "_req" + requests);
  }

  /**
   * The cfg text for this model.
   *
   * @throws BadInputException if the template has a placeholder this tool does not know
   */
  public String render(String template) throws BadInputException {
    String cfg = template
        .replace("${DP}", Integer.toString(topology.dp()))
        .replace("${CP}", Integer.toString(topology.cp()))
        .replace("${TP}", Integer.toString(topology.tp()))
        .replace("${PP}", Integer.toString(topology.pp()))
        .replace("${VERSION}", version)
        .replace("${POLICY}", policy)
        .replace("${STORAGE}", storage ? "TRUE" : "FALSE")
        .replace("${REQUESTS}", Integer.toString(requests))
        .replace("${PAGES}", Integer.toString(pages()));
    int left = cfg.indexOf("${");
    if (left >= 0) {
      String placeholder = cfg.substring(left, Math.min(cfg.length(), cfg.indexOf('}', left) + 1));
      throw new BadInputException(module().template() + " has an unknown placeholder " + placeholder);
    }
    return cfg;
  }
}
