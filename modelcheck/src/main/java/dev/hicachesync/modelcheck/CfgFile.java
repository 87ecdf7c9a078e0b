package dev.hicachesync.modelcheck;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tlc2.tool.ConfigFileException;
import tlc2.tool.impl.ModelConfig;
import tlc2.util.Vect;
import util.SimpleFilenameToStream;

/**
 * A TLC configuration file as TLC reads it: parsed by TLC's own {@link ModelConfig} (in this JVM, see
 * {@link InProcessTlc}), and written back with {@link #render()} after sections are dropped or replaced
 * (the safety and liveness parts of an ad-hoc model, one property of several).
 *
 * <p>TLC's "Temporal properties were violated" does not say which property failed, so the runner reports
 * the cfg's property list instead; and a cfg with properties must run with one worker (liveness checking
 * with several workers is unsound in this TLC, see TLC-NOTES).
 *
 * @param constants the {@code CONSTANTS} assignments as cfg lines ({@code N = 2}, {@code N <- Def}, {@code
 *     N <- [M] Def}); values as TLC printed them
 * @param init the name after {@code INIT}, or null
 * @param next the name after {@code NEXT}, or null
 * @param specification the name after {@code SPECIFICATION}, or null; {@value #REDUCED_SPEC} is a
 *     partial-order reduction for safety checking (docs/explanation/spec-design.md)
 * @param constraints names after {@code CONSTRAINT}/{@code CONSTRAINTS}
 * @param actionConstraints names after {@code ACTION_CONSTRAINT}/{@code ACTION_CONSTRAINTS}
 * @param invariants names after {@code INVARIANT}/{@code INVARIANTS}
 * @param properties names after {@code PROPERTY}/{@code PROPERTIES}
 * @param symmetry the name after {@code SYMMETRY}, or null
 * @param view the name after {@code VIEW}, or null (states with the same view are merged: the catalogue's
 *     rank symmetry, {@code RankSymmetryView}, is one)
 * @param checkDeadlock {@code CHECK_DEADLOCK} (TLC's default: true)
 * @param type the name after {@code TYPE}, or null
 * @param typeConstraint the name after {@code TYPE_CONSTRAINT}, or null
 */
public record CfgFile(List<String> constants, String init, String next, String specification,
    List<String> constraints, List<String> actionConstraints, List<String> invariants, List<String> properties,
    String symmetry, String view, boolean checkDeadlock, String type, String typeConstraint) {

  /** The specification of HiCacheSync's and HiCachePipeline's partial-order reductions (no fairness). */
  public static final String REDUCED_SPEC = "ReducedSpec";

  /** A section of a cfg, by the keyword that opens it. */
  public enum Section { CONSTANTS, INIT, NEXT, SPECIFICATION, CONSTRAINTS, ACTION_CONSTRAINTS, INVARIANTS, PROPERTIES,
    SYMMETRY, VIEW, CHECK_DEADLOCK, TYPE, TYPE_CONSTRAINT }

  public CfgFile {
    constants = List.copyOf(constants);
    constraints = List.copyOf(constraints);
    actionConstraints = List.copyOf(actionConstraints);
    invariants = List.copyOf(invariants);
    properties = List.copyOf(properties);
  }

  /**
   * Reads a cfg file with TLC's parser.
   *
   * @throws BadInputException in one line, if the file cannot be read or TLC rejects it
   */
  public static CfgFile read(Path file) throws BadInputException {
    if (!Files.isRegularFile(file)) {
      throw new BadInputException("model configuration not found: " + file);
    }
    return InProcessTlc.call(() -> {
      ModelConfig config = new ModelConfig(file.toAbsolutePath().toString(), new SimpleFilenameToStream());
      try {
        config.parse();
      } catch (ConfigFileException e) {
        throw new BadInputException(file.getFileName() + ": " + String.join(" ", e.getMessage().trim().split("\\s*\\n\\s*")));
      }
      return new CfgFile(constants(config), orNull(config.getInit()), orNull(config.getNext()),
          orNull(config.getSpec()), strings(config.getConstraints()), strings(config.getActionConstraints()),
          strings(config.getInvariants()), strings(config.getProperties()), orNull(config.getSymmetry()),
          orNull(config.getView()), config.getCheckDeadlock(), orNull(config.getType()),
          orNull(config.getTypeConstraint()));
    });
  }

  /** The assignments in cfg syntax: {@code =} values (of the main module, then per module), then {@code <-}. */
  private static List<String> constants(ModelConfig config) {
    List<String> out = new ArrayList<>();
    for (Object line : vect(config.getConstants())) {
      out.add(assignment((Vect<?>) line, ""));
    }
    for (Map.Entry<String, Object> e : sorted(config.getModConstants()).entrySet()) {
      for (Object line : vect((Vect<?>) e.getValue())) {
        out.add(assignment((Vect<?>) line, "[" + e.getKey() + "] "));
      }
    }
    sorted(config.getOverrides()).forEach((name, def) -> out.add(name + " <- " + def));
    for (Map.Entry<String, Object> e : sorted(config.getModOverrides()).entrySet()) {
      sorted((Hashtable<?, ?>) e.getValue()).forEach((name, def) -> out.add(name + " <- [" + e.getKey() + "] " + def));
    }
    return out;
  }

  /** {@code name = value} or {@code name(arg, ...) = value} from ModelConfig's {@code [name, args..., value]}. */
  private static String assignment(Vect<?> line, String module) {
    StringBuilder b = new StringBuilder(String.valueOf(line.elementAt(0)));
    if (line.size() > 2) {
      List<String> args = new ArrayList<>();
      for (int i = 1; i < line.size() - 1; i++) {
        args.add(String.valueOf(line.elementAt(i)));
      }
      b.append('(').append(String.join(", ", args)).append(')');
    }
    return b.append(" = ").append(module).append(line.elementAt(line.size() - 1)).toString();
  }

  private static Map<String, Object> sorted(Hashtable<?, ?> table) {
    Map<String, Object> out = new TreeMap<>();
    table.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  private static List<Object> vect(Vect<?> vect) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < vect.size(); i++) {
      out.add(vect.elementAt(i));
    }
    return out;
  }

  private static List<String> strings(Vect<?> vect) {
    return vect(vect).stream().map(String::valueOf).toList();
  }

  private static String orNull(String name) {
    return name == null || name.isBlank() ? null : name;
  }

  /** This cfg without {@code sections} (e.g. {@link Section#PROPERTIES}: a safety-only cfg). */
  public CfgFile without(Section... sections) {
    List<Section> drop = List.of(sections);
    return new CfgFile(drop.contains(Section.CONSTANTS) ? List.of() : constants,
        drop.contains(Section.INIT) ? null : init, drop.contains(Section.NEXT) ? null : next,
        drop.contains(Section.SPECIFICATION) ? null : specification,
        drop.contains(Section.CONSTRAINTS) ? List.of() : constraints,
        drop.contains(Section.ACTION_CONSTRAINTS) ? List.of() : actionConstraints,
        drop.contains(Section.INVARIANTS) ? List.of() : invariants,
        drop.contains(Section.PROPERTIES) ? List.of() : properties,
        drop.contains(Section.SYMMETRY) ? null : symmetry, drop.contains(Section.VIEW) ? null : view,
        drop.contains(Section.CHECK_DEADLOCK) || checkDeadlock, drop.contains(Section.TYPE) ? null : type,
        drop.contains(Section.TYPE_CONSTRAINT) ? null : typeConstraint);
  }

  /** This cfg with {@code SPECIFICATION name} and {@code VIEW view} (none if null). */
  public CfgFile withSpecification(String name, String view) {
    return new CfgFile(constants, init, next, name, constraints, actionConstraints, invariants, properties, symmetry,
        view, checkDeadlock, type, typeConstraint);
  }

  /** This cfg checking the single temporal property {@code property} instead of its list. */
  public CfgFile withOnlyProperty(String property) {
    return new CfgFile(constants, init, next, specification, constraints, actionConstraints, invariants,
        List.of(property), symmetry, view, checkDeadlock, type, typeConstraint);
  }

  /** The cfg in TLC's syntax, one section after another (comments are not kept). */
  public String render() {
    StringBuilder b = new StringBuilder();
    list(b, "CONSTANTS", constants);
    single(b, "INIT", init);
    single(b, "NEXT", next);
    single(b, "SPECIFICATION", specification);
    list(b, "CONSTRAINTS", constraints);
    list(b, "ACTION_CONSTRAINTS", actionConstraints);
    list(b, "INVARIANTS", invariants);
    list(b, "PROPERTIES", properties);
    single(b, "SYMMETRY", symmetry);
    single(b, "VIEW", view);
    if (!checkDeadlock) {
      b.append("CHECK_DEADLOCK FALSE\n");
    }
    single(b, "TYPE", type);
    single(b, "TYPE_CONSTRAINT", typeConstraint);
    return b.toString();
  }

  private static void list(StringBuilder b, String keyword, List<String> items) {
    if (!items.isEmpty()) {
      b.append(keyword).append('\n');
      items.forEach(item -> b.append("    ").append(item).append('\n'));
    }
  }

  private static void single(StringBuilder b, String keyword, String name) {
    if (name != null) {
      b.append(keyword).append(' ').append(name).append('\n');
    }
  }

  /**
   * The reduction the cfg declares that is sound for invariants and unsound for TLC's liveness
   * checking, or null: {@code SYMMETRY} or {@code VIEW} (states merged), or {@value #REDUCED_SPEC}
   * (an ample-set reduction, written without fairness).
   */
  public String reduction() {
    return symmetry != null ? "SYMMETRY" : view != null ? "VIEW" : REDUCED_SPEC.equals(specification) ? REDUCED_SPEC : null;
  }

  /** Whether TLC will check temporal properties. */
  public boolean hasProperties() {
    return !properties.isEmpty();
  }
}
