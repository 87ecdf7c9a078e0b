package dev.hicachesync.modelcheck;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names in a TLA+ definition written one per indented line under its head, such as {@code
 * HiCacheSync.tla}'s {@code SomeCollectiveCompletes ==} followed by {@code \/ SchedRecvRequests} lines: tests
 * that keep a list of the spec's steps or checks in step with the spec read the spec's list this way.
 */
public final class TlaDefinitions {

  private TlaDefinitions() {}

  /** The names of the conjunction that defines {@code name} in {@code module} (its indented lines). */
  public static List<String> conjuncts(String module, String name) {
    return joined(module, name, "/\\");
  }

  /** The names of the disjunction that defines {@code name} in {@code module} (its indented lines). */
  public static List<String> disjuncts(String module, String name) {
    return joined(module, name, "\\/");
  }

  /** The names that follow {@code connective} in the indented lines under {@code name ==} in {@code module}. */
  private static List<String> joined(String module, String name, String connective) {
    Matcher block = Pattern.compile("(?m)^" + name + " ==\\n((?:[ \\t]+\\S.*\\n)+)").matcher(module);
    assertTrue(block.find(), "no definition of " + name + " on indented lines");
    List<String> names = new ArrayList<>();
    Matcher m = Pattern.compile(Pattern.quote(connective) + " (\\w+)").matcher(block.group(1));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }
}
