package dev.hicachesync.report.swimlane;

import dev.hicachesync.modelcheck.trace.ErrorTrace;
import dev.hicachesync.modelcheck.trace.TraceState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bug in words, for the top of a page: which catalogued bug the model reproduces and where SGLang
 * tracked it, what the model is (its cfg's first comment line), the violated property as the spec
 * defines it, and for each action of the counterexample where the spec defines it and which SGLang code
 * it models ({@link SpecSource}).
 *
 * @param bug the catalogue's bug id ("B1"), or ""
 * @param ref the catalogue's reference ("#20460", "bytedance-iaas/sglang#676", "INV-3"), or ""
 * @param refUrl the reference as a link to the SGLang issue or pull request, or "" when it is none
 * @param description what the model is, from its cfg's first comment line, or ""
 * @param property the violated property's name, or "" (a deadlock)
 * @param definitions the property's definition and the operators it uses, as the spec writes them
 * @param actions per action of the counterexample, in order of first appearance
 * @param payloadLabels per collective site, the names of its payload's positions (one list per vector
 *     length the spec posts there), from the spec's {@code \* payload SITE: a, b} comments
 */
public record Story(String bug, String ref, String refUrl, String description, String property,
    List<SpecSource.Definition> definitions, Map<String, Action> actions, Map<String, List<List<String>>> payloadLabels) {

  /** Nothing known: a page without the story (a trace from elsewhere). */
  public static final Story NONE = new Story("", "", "", "", "", List.of(), Map.of(), Map.of());

  /**
   * One action: where the spec defines it and what it models.
   *
   * @param name the action's operator name
   * @param location "HiCacheSync.tla:1102", or TLC's own line when the module is not at hand
   * @param pointers the SGLang code it models ({@link SpecSource#TAG}); empty when the spec names none
   */
  public record Action(String name, String location, List<String> pointers) {}

  private static final Pattern SGLANG_REF = Pattern.compile("^#(\\d+)$");
  private static final Pattern FORK_REF = Pattern.compile("^([A-Za-z0-9-]+/[A-Za-z0-9._-]+)#(\\d+)$");
  private static final Pattern LOCATION = Pattern.compile("line (\\d+), col \\d+ to line \\d+, col \\d+ of module (\\w+)");

  /**
   * The story of a counterexample.
   *
   * @param bug the catalogue's bug id, or null
   * @param ref the catalogue's reference, or null
   * @param cfg the model's cfg (its first comment line describes it), or null
   * @param module the module TLC ran (the properties are looked up from it), or null: the actions' module
   * @param property the violated property, or "" for a deadlock
   * @param trace the counterexample
   * @param spec the modules
   */
  public static Story of(String bug, String ref, Path cfg, String module, String property, ErrorTrace trace,
      SpecSource spec) {
    Map<String, Action> actions = new LinkedHashMap<>();
    Set<String> modules = new LinkedHashSet<>();
    if (module != null) {
      modules.add(module);
    }
    for (TraceState s : trace.states()) {
      if (s.action().equals(TraceState.INITIAL) || actions.containsKey(s.action())) {
        continue;
      }
      Matcher at = LOCATION.matcher(s.location());
      String home = at.find() ? at.group(2) : null;
      Optional<SpecSource.Definition> d = home == null ? Optional.empty() : spec.find(home, s.action());
      if (d.isEmpty() && module != null) {
        d = spec.resolve(module, s.action());
      }
      if (home != null) {
        modules.add(home);
      }
      String location = d.map(SpecSource.Definition::location)
          .orElse(home == null ? "" : home + ".tla:" + at.group(1));
      actions.put(s.action(), new Action(s.action(), location, d.map(SpecSource.Definition::pointers).orElse(List.of())));
    }
    List<SpecSource.Definition> definitions = List.of();
    for (String m : modules) {
      if (property.isEmpty()) {
        break;
      }
      definitions = spec.withHelpers(m, property);
      if (!definitions.isEmpty()) {
        break;
      }
    }
    Map<String, List<List<String>>> labels = new LinkedHashMap<>();
    for (String m : modules) {
      spec.payloadLabels(m).forEach((site, sets) -> labels.computeIfAbsent(site, k -> new ArrayList<>()).addAll(sets));
    }
    String r = ref == null ? "" : ref;
    return new Story(bug == null ? "" : bug, r, url(r), description(cfg), property, definitions, actions, labels);
  }

  /** The link for a catalogue reference: SGLang's issue or pull request N (GitHub forwards an issue link to the pull request). */
  static String url(String ref) {
    Matcher own = SGLANG_REF.matcher(ref.trim());
    if (own.matches()) {
      return "https://github.com/sgl-project/sglang/issues/" + own.group(1);
    }
    Matcher fork = FORK_REF.matcher(ref.trim());
    if (fork.matches()) {
      return "https://github.com/" + fork.group(1) + "/issues/" + fork.group(2);
    }
    return "";
  }

  /**
   * The cfg's opening comment ({@code \\* ...}), without the comment marks: its first line, and the lines
   * that continue its sentence (up to four lines in all).
   */
  static String description(Path cfg) {
    if (cfg == null || !Files.isRegularFile(cfg)) {
      return "";
    }
    try {
      List<String> lines = Files.readAllLines(cfg, StandardCharsets.UTF_8);
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < Math.min(4, lines.size()); i++) {
        String l = lines.get(i).trim();
        if (!l.startsWith("\\*") || (i > 0 && b.toString().endsWith("."))) {
          break;
        }
        b.append(b.length() == 0 ? "" : " ").append(l.substring(2).trim());
      }
      return b.toString();
    } catch (IOException e) {
      return "";
    }
  }

  /** The payload labels of {@code site} that fit a vector of {@code size}, or empty. */
  public List<String> labels(String site, int size) {
    for (List<String> l : payloadLabels.getOrDefault(site, List.of())) {
      if (l.size() == size) {
        return l;
      }
    }
    return List.of();
  }
}
