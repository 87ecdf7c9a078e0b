package dev.hicachesync.report.swimlane;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * The TLA+ modules as text: where each operator is defined, its definition, and the SGLang code it
 * models, for the page to quote.
 *
 * <p>The spec's modules are written in one style that this reads without a TLA+ parser: an operator
 * definition starts at column 0 ({@code Name == ...} or {@code Name(a, b) == ...}) and goes on over the
 * indented lines below it; the comment lines ({@code \*}) directly above it describe it. A comment line
 * of the form
 *
 * <pre>
 * \* sglang: hiradix_cache.py::writing_check
 * </pre>
 *
 * names the SGLang function(s) the action models: {@link Definition#pointers()} is what follows the tag
 * (several separated by {@code ;}). Actions that model no SGLang code (the environment: a GPU event, a
 * clock) say so after the tag too, so that every action a counterexample shows has one.
 */
public final class SpecSource {

  /** The comment tag naming the SGLang code an action models. */
  public static final String TAG = "sglang:";

  private static final Pattern DEFINITION = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)\\s*(\\([^=]*\\))?\\s*==(?!=)");
  private static final Pattern EXTENDS = Pattern.compile("^EXTENDS\\s+([^\\\\]*)");
  private static final Pattern PAYLOAD = Pattern.compile("^\\\\\\*\\s*payload\\s+([A-Za-z0-9_]+):(.*)$");
  private static final Pattern INSTANCE = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)\\s*==\\s*INSTANCE\\s+([A-Za-z_][A-Za-z0-9_]*)");

  /**
   * One operator definition.
   *
   * @param module the module's name
   * @param name the operator's name
   * @param line the 1-based line of its first line
   * @param text the definition, from its first line to its last indented line
   * @param pointers what the {@value #TAG} comment above it says, one entry per {@code ;}-separated part
   */
  public record Definition(String module, String name, int line, String text, List<String> pointers) {

    /** "HiCacheSync.tla:497". */
    public String location() {
      return module + ".tla:" + line;
    }
  }

  private final List<Path> dirs;
  private final Map<String, Optional<Module>> modules = new LinkedHashMap<>();

  /** Modules are looked up in {@code dirs} in order (the models directory, then the spec directory). */
  public SpecSource(List<Path> dirs) {
    this.dirs = List.copyOf(dirs);
  }

  /** The definition of {@code name} in {@code module} itself, if the module is found and defines it. */
  public Optional<Definition> find(String module, String name) {
    return module(module).map(m -> m.definitions.get(name));
  }

  /**
   * The definition of {@code name} as {@code module} sees it: its own, else that of a module it extends
   * (depth first, in the order of its {@code EXTENDS}).
   */
  public Optional<Definition> resolve(String module, String name) {
    return resolve(module, name, new LinkedHashSet<>());
  }

  private Optional<Definition> resolve(String module, String name, Set<String> seen) {
    if (!seen.add(module)) {
      return Optional.empty();
    }
    Optional<Module> m = module(module);
    if (m.isEmpty()) {
      return Optional.empty();
    }
    Definition own = m.get().definitions.get(name);
    if (own != null) {
      return Optional.of(own);
    }
    for (String parent : m.get().extended) {
      Optional<Definition> d = resolve(parent, name, seen);
      if (d.isPresent()) {
        return d;
      }
    }
    return Optional.empty();
  }

  /**
   * The definition of {@code name} as {@code module} sees it, and the definitions in the same module of
   * the operators it uses (one level: {@code TreeAgreement == AgreeAt(...)} brings {@code AgreeAt}), and
   * through an instance ({@code C!CollectiveMatching}) the instantiated module's.
   */
  public List<Definition> withHelpers(String module, String name) {
    List<Definition> out = new ArrayList<>();
    Optional<Definition> d = resolve(module, name);
    if (d.isEmpty()) {
      return out;
    }
    out.add(d.get());
    Module home = module(d.get().module()).orElseThrow();
    String body = d.get().text().substring(d.get().text().indexOf("==") + 2);
    Matcher id = Pattern.compile("\\b([A-Za-z_][A-Za-z0-9_]*)(!([A-Za-z_][A-Za-z0-9_]*))?").matcher(body);
    Set<String> added = new LinkedHashSet<>(List.of(name));
    while (id.find()) {
      Definition helper = null;
      if (id.group(3) != null && home.instances.containsKey(id.group(1))) {
        helper = resolve(home.instances.get(id.group(1)), id.group(3)).orElse(null);
      } else if (id.group(3) == null) {
        helper = home.definitions.get(id.group(1));
      }
      if (helper != null && added.add(helper.module() + "!" + helper.name())) {
        out.add(helper);
      }
    }
    return out;
  }

  /**
   * The names of the payload positions of each collective site, from the {@code \\* payload SITE: a, b, c}
   * comments of {@code module} and the modules it extends or instantiates; a site whose vector has
   * several shapes has one list per shape.
   */
  public Map<String, List<List<String>>> payloadLabels(String module) {
    Map<String, List<List<String>>> out = new LinkedHashMap<>();
    collectLabels(module, new LinkedHashSet<>(), out);
    return out;
  }

  private void collectLabels(String module, Set<String> seen, Map<String, List<List<String>>> out) {
    if (!seen.add(module)) {
      return;
    }
    module(module).ifPresent(m -> {
      m.payloads.forEach((site, sets) -> out.computeIfAbsent(site, k -> new ArrayList<>()).addAll(sets));
      m.extended.forEach(e -> collectLabels(e, seen, out));
      m.instances.values().forEach(i -> collectLabels(i, seen, out));
    });
  }

  private Optional<Module> module(String name) {
    return modules.computeIfAbsent(name, n -> {
      for (Path dir : dirs) {
        Path file = dir.resolve(n + ".tla");
        if (Files.isRegularFile(file)) {
          try {
            return Optional.of(Module.parse(n, Files.readAllLines(file, StandardCharsets.UTF_8)));
          } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
          }
        }
      }
      return Optional.empty();
    });
  }

  /** One module's definitions, the modules it extends and its named instances. */
  private record Module(Map<String, Definition> definitions, List<String> extended, Map<String, String> instances,
      Map<String, List<List<String>>> payloads) {

    static Module parse(String name, List<String> lines) {
      Map<String, Definition> defs = new LinkedHashMap<>();
      List<String> extended = new ArrayList<>();
      Map<String, String> instances = new LinkedHashMap<>();
      Map<String, List<List<String>>> payloads = new LinkedHashMap<>();
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        Matcher payload = PAYLOAD.matcher(line);
        if (payload.find()) {
          List<String> names = new ArrayList<>();
          for (String n : payload.group(2).split(",")) {
            names.add(n.trim());
          }
          payloads.computeIfAbsent(payload.group(1), k -> new ArrayList<>()).add(List.copyOf(names));
          continue;
        }
        Matcher ext = EXTENDS.matcher(line);
        if (ext.find()) {
          for (String m : ext.group(1).split(",")) {
            if (!m.isBlank()) {
              extended.add(m.trim());
            }
          }
          continue;
        }
        Matcher inst = INSTANCE.matcher(line);
        if (inst.find()) {
          instances.put(inst.group(1), inst.group(2));
        }
        Matcher def = DEFINITION.matcher(line);
        if (!def.find() || defs.containsKey(def.group(1))) {
          continue;
        }
        int end = i;
        for (int j = i + 1; j < lines.size(); j++) {
          String next = lines.get(j);
          if (next.isBlank()) {
            continue;
          }
          if (!Character.isWhitespace(next.charAt(0))) {
            break;
          }
          end = j;
        }
        defs.put(def.group(1), new Definition(name, def.group(1), i + 1,
            String.join("\n", lines.subList(i, end + 1)).stripTrailing(), pointers(lines, i)));
      }
      return new Module(defs, extended, instances, payloads);
    }

    /** The {@value #TAG} entries of the comment lines directly above line {@code def} (RECURSIVE lines skipped). */
    private static List<String> pointers(List<String> lines, int def) {
      List<String> out = new ArrayList<>();
      for (int j = def - 1; j >= 0; j--) {
        String l = lines.get(j);
        if (l.startsWith("RECURSIVE")) {
          continue;
        }
        if (!l.startsWith("\\*")) {
          break;
        }
        String c = l.substring(2).trim();
        if (c.startsWith(TAG)) {
          List<String> parts = new ArrayList<>();
          for (String p : c.substring(TAG.length()).split(";")) {
            if (!p.isBlank()) {
              parts.add(p.trim());
            }
          }
          out.addAll(0, parts);
        }
      }
      return List.copyOf(out);
    }
  }
}
