package dev.hicachesync.modelcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The parts of a TLC configuration file the runner needs: the checked invariants and temporal
 * properties.
 *
 * <p>TLC's "Temporal properties were violated" does not say which property failed, so the
 * runner reports the cfg's property list instead; and a cfg with properties must run with one
 * worker (liveness checking with several workers is unsound in this TLC, see TLC-NOTES).
 *
 * @param invariants names after {@code INVARIANT}/{@code INVARIANTS}
 * @param properties names after {@code PROPERTY}/{@code PROPERTIES}
 * @param symmetry whether the cfg declares a {@code SYMMETRY} set
 * @param view whether the cfg declares a {@code VIEW} (states with the same view are merged: the
 *     catalogue's rank symmetry, {@code RankSymmetryView}, is one)
 * @param specification the name after {@code SPECIFICATION}, or null; {@value #REDUCED_SPEC} is a
 *     partial-order reduction for safety checking (docs/explanation/spec-design.md)
 */
public record CfgFile(List<String> invariants, List<String> properties, boolean symmetry, boolean view,
    String specification) {

  /** The specification of HiCacheSync's and HiCachePipeline's partial-order reductions (no fairness). */
  public static final String REDUCED_SPEC = "ReducedSpec";

  private static final Set<String> KEYWORDS = Set.of(
      "CONSTANT", "CONSTANTS", "INIT", "NEXT", "SPECIFICATION", "INVARIANT", "INVARIANTS",
      "PROPERTY", "PROPERTIES", "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT",
      "ACTION_CONSTRAINTS", "SYMMETRY", "VIEW", "CHECK_DEADLOCK", "ALIAS", "POSTCONDITION");

  public CfgFile {
    invariants = List.copyOf(invariants);
    properties = List.copyOf(properties);
  }

  /** Parses the text of a cfg file. */
  public static CfgFile parse(String text) {
    String noComments = text.replaceAll("(?s)\\(\\*.*?\\*\\)", " ").replaceAll("\\\\\\*[^\\n]*", " ");
    List<String> invariants = new ArrayList<>();
    List<String> properties = new ArrayList<>();
    String section = "";
    boolean symmetry = false;
    boolean view = false;
    String specification = null;
    for (String token : noComments.split("\\s+")) {
      if (token.isEmpty()) {
        continue;
      }
      if (KEYWORDS.contains(token)) {
        section = token;
        symmetry |= token.equals("SYMMETRY");
        view |= token.equals("VIEW");
      } else if (section.startsWith("INVARIANT")) {
        invariants.add(token);
      } else if (section.startsWith("PROPERT")) {
        properties.add(token);
      } else if (section.equals("SPECIFICATION") && specification == null) {
        specification = token;
      }
    }
    return new CfgFile(invariants, properties, symmetry, view, specification);
  }

  /**
   * {@code text} with its {@code PROPERTY}/{@code PROPERTIES} sections replaced by the single
   * {@code PROPERTY property} (comments are dropped).
   */
  public static String withOnlyProperty(String text, String property) {
    return without(text, "PROPERTY", "PROPERTIES") + "\nPROPERTY " + property + "\n";
  }

  /**
   * {@code text} without the sections opened by {@code keywords} (e.g. {@code PROPERTY} and
   * {@code PROPERTIES}: a safety-only cfg); comments are dropped.
   */
  public static String without(String text, String... keywords) {
    String noComments = text.replaceAll("(?s)\\(\\*.*?\\*\\)", " ").replaceAll("\\\\\\*[^\\n]*", " ");
    String keyword = String.join("|", KEYWORDS);
    String section = "\\b(?:" + String.join("|", keywords) + ")\\b(?:\\s+(?!(?:" + keyword
        + ")\\b)[A-Za-z_][A-Za-z0-9_]*)*";
    return noComments.replaceAll(section, " ");
  }

  /**
   * The reduction the cfg declares that is sound for invariants and unsound for TLC's liveness
   * checking, or null: {@code SYMMETRY} or {@code VIEW} (states merged), or {@value #REDUCED_SPEC}
   * (an ample-set reduction, written without fairness).
   */
  public String reduction() {
    return symmetry ? "SYMMETRY" : view ? "VIEW" : REDUCED_SPEC.equals(specification) ? REDUCED_SPEC : null;
  }

  /** Whether TLC will check temporal properties. */
  public boolean hasProperties() {
    return !properties.isEmpty();
  }
}
