package dev.hicachesync.modelcheck;

import dev.hicachesync.topology.Topology;
import java.util.Locale;
import java.util.Map;

/**
 * A model built on the command line from the template of its {@link AdhocModule} (chosen by the
 * topology): the template's {@code ${DP}}, {@code ${CP}}, {@code ${TP}}, {@code ${PP}},
 * {@code ${VERSION}}, {@code ${POLICY}} and {@code ${STORAGE}} (TRUE/FALSE) are replaced; a
 * template may leave out those its module has no constant for.
 *
 * @param topology parallel sizes
 * @param version protocol version
 * @param policy prefetch policy
 * @param storage whether the storage tier is on
 */
public record AdhocModel(Topology topology, String version, String policy, boolean storage) {

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
    return new AdhocModel(topology, version, chosenPolicy, s.equals("on"));
  }

  /** The module this model runs (by its topology). */
  public AdhocModule module() {
    try {
      return AdhocModule.of(topology, version);
    } catch (BadInputException e) {
      throw new IllegalStateException("of() refuses this topology: " + topology, e);
    }
  }

  /** The run directory's name, e.g. {@code adhoc_merged_1-2-1-1_best_effort_storage}. */
  public String name() {
    return "adhoc_" + version + "_" + topology.sizes().replace(',', '-') + "_" + policy + (storage ? "_storage" : "_nostorage");
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
        .replace("${STORAGE}", storage ? "TRUE" : "FALSE");
    int left = cfg.indexOf("${");
    if (left >= 0) {
      String placeholder = cfg.substring(left, Math.min(cfg.length(), cfg.indexOf('}', left) + 1));
      throw new BadInputException(module().template() + " has an unknown placeholder " + placeholder);
    }
    return cfg;
  }
}
