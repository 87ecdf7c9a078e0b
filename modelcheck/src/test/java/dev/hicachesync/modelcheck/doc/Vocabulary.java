package dev.hicachesync.modelcheck.doc;

import dev.hicachesync.monitor.ConsensusAlarm;
import dev.hicachesync.sync.Invariant;
import dev.hicachesync.sync.SyncPoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The names the spec and the implementation share, read from both: the sync points (the spec modules' {@code
 * Sites} and {@code sync.SyncPoint}), the invariants (the operators the catalogue's cfgs check, and {@code
 * sync.Invariant} with the consensus monitor's {@code monitor.ConsensusAlarm.Kind}) and the steps ({@code
 * HiCacheSync.tla}'s actions tagged {@code sglang:} whose name starts with a thread's prefix, and the
 * implementation's classes and methods marked {@code @SpecStep}).
 *
 * <p>A name found on one side only is a finding unless it is listed below with the reason it is one-sided;
 * {@link #problems()} says which are neither, and which listed ones are no longer one-sided.
 * {@code docs/reference/vocabulary.md} holds {@link #render()} between its markers.
 */
final class Vocabulary {

  /** The markdown file that holds the generated table, relative to the repository root. */
  static final String DOC = "docs/reference/vocabulary.md";
  /** The block kind of the generated table: {@code <!-- BEGIN vocabulary -->}. */
  static final String BLOCK = "vocabulary";
  /** What a reader (or a failing test) runs to bring the table up to date. */
  static final String REGENERATE =
      "mvn -B -q -pl modelcheck -am test -Dtest=VocabularyTest -Dsurefire.failIfNoSpecifiedTests=false"
          + " -Dhicache.docs.write=true";

  /** The protocol modules: each declares the sync points its threads post on as {@code Sites}. */
  static final List<String> MODULES =
      List.of("HiCacheSync", "HiCachePipeline", "HiCacheReplicas", "HiCacheUnified", "HiCacheUnifiedPipeline");
  /** The module whose steps the implementation's {@code @SpecStep} classes are (versions pre20460 to pipelined). */
  static final String STEP_MODULE = "HiCacheSync";
  /** The spec's action prefix of each thread that takes steps ({@code SpecStep.Actor}), and the async handle. */
  static final List<String> ACTORS = List.of("Sched", "Pf", "Async");

  /** Names on the spec's side only, and why. */
  static final Map<String, String> SPEC_ONLY = ordered(
      "sync point S5B", "HiCachePipeline's prefetch sync thread MIN-reduces each batch ack (#27010); the"
          + " implementation's completion sync (version unified) reduces on S5, as HiCacheUnified.tla does",
      "sync point new_group", "HiCacheReplicas' start-up group creation (B16, B19); the implementation is given"
          + " its groups built",
      "invariant CompletionSyncJoinable", "HiCacheUnified's completion-sync thread liveness face of INV-1;"
          + " the implementation's threads fail at the groups' timeout instead",
      "invariant StorageHits", "HiCacheReplicas' symptom of a broken INV-8 (a prefetch of a key whose backup"
          + " completed is revoked); the implementation checks INV-8 itself, StorageShardCoverage",
      "invariant EndClean", "HiCachePipeline's end state (nothing left once Done), the finite part of its"
          + " liveness properties; the implementation's quiescence check names the liveness properties instead",
      "step SchedRecvRequests", "the request broadcast is the engine's own collective (api.SchedulerCall"
          + " RECV_REQUESTS; the simulator's sim.Intake), not a cache step");

  /** Names on the implementation's side only, and why. */
  static final Map<String, String> JAVA_ONLY = ordered();

  private static final Pattern SITES = Pattern.compile("^Sites\\s*==\\s*\\{([^}]*)\\}", Pattern.MULTILINE);
  private static final Pattern SITE_LITERAL = Pattern.compile("\"(RECV|S\\d[0-9A-Z]*)\"");
  private static final Pattern DEFINITION = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)\\s*(\\([^=]*\\))?\\s*==(?!=)");
  private static final Pattern SGLANG = Pattern.compile("^\\\\\\*\\s*sglang:\\s*(.*)$");
  private static final Pattern CFG_SECTION = Pattern.compile("^(INVARIANTS?|PROPERT(?:Y|IES)|[A-Z][A-Z_]*)\\b(.*)$");
  private static final Pattern SPEC_STEP = Pattern.compile(
      "@SpecStep\\(SpecStep\\.Actor\\.([A-Z_]+)\\)\\s*(?:(?:final|public|private|static|abstract)\\s+)*"
          + "(?:class\\s+([A-Z][A-Za-z0-9]*)|[A-Za-z0-9_<>\\[\\]]+\\s+([a-z][A-Za-z0-9]*)\\s*\\()");

  /** One name: its kind ("sync point", "invariant", "step"), where the spec has it, where Java has it. */
  record Entry(String kind, String name, String spec, String java) {
    String key() {
      return kind + " " + name;
    }

    boolean both() {
      return !spec.isEmpty() && !java.isEmpty();
    }
  }

  private final Path root;
  private final List<Entry> entries = new ArrayList<>();
  /** Steps whose name is not their {@code sglang:} function's, and spec sites a module posts but does not declare. */
  private final List<String> misnamed = new ArrayList<>();

  Vocabulary(Path root) {
    this.root = root;
    syncPoints();
    invariants();
    steps();
  }

  List<Entry> entries() {
    return entries;
  }

  /** Every name found on one side only that is not listed, every listed one that is not one-sided, every misnaming. */
  List<String> problems() {
    List<String> out = new ArrayList<>(misnamed);
    Set<String> specOnly = new TreeSet<>();
    Set<String> javaOnly = new TreeSet<>();
    for (Entry e : entries) {
      if (e.java().isEmpty()) {
        specOnly.add(e.key());
      } else if (e.spec().isEmpty()) {
        javaOnly.add(e.key());
      }
    }
    for (String k : specOnly) {
      if (!SPEC_ONLY.containsKey(k)) {
        out.add(k + " is in the spec only (" + where(k) + "): add it to the implementation or list why in"
            + " Vocabulary.SPEC_ONLY");
      }
    }
    for (String k : javaOnly) {
      if (!JAVA_ONLY.containsKey(k)) {
        out.add(k + " is in the implementation only (" + where(k) + "): add it to the spec or list why in"
            + " Vocabulary.JAVA_ONLY");
      }
    }
    for (String k : SPEC_ONLY.keySet()) {
      if (!specOnly.contains(k)) {
        out.add(k + " is listed as spec-only but is not (any more): remove it from Vocabulary.SPEC_ONLY");
      }
    }
    for (String k : JAVA_ONLY.keySet()) {
      if (!javaOnly.contains(k)) {
        out.add(k + " is listed as implementation-only but is not (any more): remove it from Vocabulary.JAVA_ONLY");
      }
    }
    return out;
  }

  /** The table: one row per name, shared names first (by kind), then the one-sided ones with their reasons. */
  List<String> render() {
    List<String> lines = new ArrayList<>();
    lines.add("| kind | name | spec | implementation | one side only because |");
    lines.add("|---|---|---|---|---|");
    for (boolean shared : new boolean[] {true, false}) {
      for (Entry e : entries) {
        if (e.both() != shared) {
          continue;
        }
        String why = SPEC_ONLY.getOrDefault(e.key(), JAVA_ONLY.getOrDefault(e.key(), ""));
        lines.add("| " + e.kind() + " | `" + e.name() + "` | " + orDash(e.spec()) + " | " + orDash(e.java())
            + " | " + orDash(why) + " |");
      }
    }
    return lines;
  }

  /** The whole list as text, for a failure message: every name and where each side has it. */
  String listing() {
    return entries.stream().map(e -> "  " + e.key() + ": spec " + orDash(e.spec()) + "; implementation "
        + orDash(e.java())).collect(Collectors.joining("\n"));
  }

  private String where(String key) {
    return entries.stream().filter(e -> e.key().equals(key)).map(e -> e.spec() + e.java()).findFirst().orElse("");
  }

  // ================================================================ sync points

  private void syncPoints() {
    Map<String, List<String>> specSites = new TreeMap<>(Vocabulary::siteOrder);
    for (String module : MODULES) {
      String text = read(root.resolve("spec").resolve(module + ".tla"));
      Matcher m = SITES.matcher(text);
      if (!m.find()) {
        misnamed.add(module + ".tla declares no Sites == {...}: the sync points its threads post on");
        continue;
      }
      Set<String> declared = new TreeSet<>();
      for (String s : m.group(1).split(",")) {
        String site = s.trim().replace("\"", "");
        declared.add(site);
        specSites.computeIfAbsent(site, k -> new ArrayList<>()).add(module);
      }
      Matcher lit = SITE_LITERAL.matcher(code(text));
      Set<String> undeclared = new TreeSet<>();
      while (lit.find()) {
        if (!declared.contains(lit.group(1))) {
          undeclared.add(lit.group(1));
        }
      }
      for (String site : undeclared) {
        misnamed.add(module + ".tla names site \"" + site + "\" but its Sites does not declare it");
      }
    }
    Set<String> all = new TreeSet<>(Vocabulary::siteOrder);
    all.addAll(specSites.keySet());
    Arrays.stream(SyncPoint.values()).map(Enum::name).forEach(all::add);
    Set<String> java = Arrays.stream(SyncPoint.values()).map(Enum::name).collect(Collectors.toSet());
    for (String site : all) {
      entries.add(new Entry("sync point", site,
          specSites.containsKey(site) ? String.join(", ", specSites.get(site)) : "",
          java.contains(site) ? "`SyncPoint." + site + "`" : ""));
    }
  }

  /** RECV first, then S1, S2, ... by number (S123 after S3), then the others by name. */
  private static int siteOrder(String a, String b) {
    return sortKey(a).compareTo(sortKey(b));
  }

  private static String sortKey(String site) {
    int at = SITE_ORDER.indexOf(site);
    return at >= 0 ? String.format("0%02d", at) : "1" + site;
  }

  private static final List<String> SITE_ORDER =
      List.of("RECV", "S1", "S2", "S3", "S123", "S4", "S5", "S5B", "S6", "S7", "ATTACH", "GROUPS");

  // ================================================================ invariants

  private void invariants() {
    Map<String, Integer> checked = new TreeMap<>();
    try (Stream<Path> cfgs = Files.list(root.resolve("modelcheck/models"))) {
      for (Path cfg : cfgs.filter(p -> p.toString().endsWith(".cfg")).sorted().toList()) {
        for (String name : cfgInvariants(read(cfg))) {
          checked.merge(name, 1, Integer::sum);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Debug* are reachability checks that must fail and TypeOK is typing: neither is a protocol invariant.
    checked.keySet().removeIf(n -> n.startsWith("Debug") || n.equals("TypeOK"));
    Set<String> java = Arrays.stream(Invariant.values()).map(Enum::name).collect(Collectors.toCollection(TreeSet::new));
    // The consensus monitor's alarms are the invariants of ConsensusMonitor.tla, by the same names.
    Set<String> alarms = Arrays.stream(ConsensusAlarm.Kind.values()).map(Enum::name).collect(Collectors.toSet());
    java.addAll(alarms);
    Set<String> all = new TreeSet<>(checked.keySet());
    all.addAll(java);
    for (String name : all) {
      String spec = "";
      if (checked.containsKey(name)) {
        spec = "checked by " + checked.get(name) + " cfg" + (checked.get(name) == 1 ? "" : "s") + " ("
            + String.join(", ", definedIn(name)) + ")";
      }
      entries.add(new Entry("invariant", name, spec, !java.contains(name) ? ""
          : alarms.contains(name) ? "`ConsensusAlarm.Kind." + name + "`" : "`Invariant." + name + "`"));
    }
  }

  /** The operators a cfg lists under INVARIANT(S), up to the next keyword. */
  static List<String> cfgInvariants(String cfg) {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String raw : cfg.lines().toList()) {
      String line = raw.replaceAll("\\\\\\*.*$", "").trim();
      if (line.isEmpty()) {
        continue;
      }
      Matcher m = CFG_SECTION.matcher(line);
      String rest = line;
      if (m.matches()) {
        in = m.group(1).startsWith("INVARIANT");
        rest = m.group(2);
      }
      if (in) {
        for (String t : rest.trim().split("\\s+")) {
          if (!t.isEmpty()) {
            out.add(t);
          }
        }
      }
    }
    return out;
  }

  private List<String> definedIn(String operator) {
    List<String> modules = new ArrayList<>();
    for (String module : specModules()) {
      String text = read(root.resolve("spec").resolve(module + ".tla"));
      if (Pattern.compile("^" + Pattern.quote(operator) + "\\s*(\\(|==)", Pattern.MULTILINE).matcher(text).find()) {
        modules.add(module);
      }
    }
    return modules;
  }

  private List<String> specModules() {
    try (Stream<Path> files = Files.list(root.resolve("spec"))) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tla") && !n.startsWith("Trace"))
          .map(n -> n.substring(0, n.length() - 4)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ================================================================ steps

  private void steps() {
    Map<String, String> spec = new TreeMap<>();
    List<String> lines = read(root.resolve("spec").resolve(STEP_MODULE + ".tla")).lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      Matcher d = DEFINITION.matcher(lines.get(i));
      if (!d.find() || actorOf(d.group(1)) == null) {
        continue;
      }
      String tag = null;
      for (int j = i - 1; j >= 0 && lines.get(j).startsWith("\\*"); j--) {
        Matcher t = SGLANG.matcher(lines.get(j));
        if (t.matches()) {
          tag = t.group(1).trim();
        }
      }
      if (tag == null) {
        continue; // a helper of an actor's steps (PfTwin, SchedCompletesAt), not a step
      }
      String name = d.group(1);
      String function = functionOf(tag);
      String expected = actorOf(name) + camel(function);
      if (!expected.equals(name)) {
        misnamed.add(STEP_MODULE + ".tla's step " + name + " models " + function + ": its name is " + expected);
      }
      spec.put(name, STEP_MODULE + ".tla (`" + tag + "`)");
    }
    Map<String, String> java = new TreeMap<>();
    try (Stream<Path> files = Files.walk(root.resolve("impl/src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        String text = read(f);
        Matcher m = SPEC_STEP.matcher(text);
        String pkg = root.resolve("impl/src/main/java/dev/hicachesync").relativize(f.getParent()).toString()
            .replace('/', '.');
        String cls = f.getFileName().toString().replace(".java", "");
        while (m.find()) {
          String prefix = switch (m.group(1)) {
            case "SCHEDULER" -> "Sched";
            case "PREFETCH_THREAD" -> "Pf";
            case "ASYNC_HANDLE" -> "Async";
            default -> throw new IllegalStateException(f + ": unknown SpecStep.Actor " + m.group(1));
          };
          if (m.group(2) != null) {
            java.put(prefix + m.group(2), "`" + pkg + "." + m.group(2) + "`");
          } else {
            java.put(prefix + Character.toUpperCase(m.group(3).charAt(0)) + m.group(3).substring(1),
                "`" + pkg + "." + cls + "." + m.group(3) + "`");
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Set<String> all = new TreeSet<>(spec.keySet());
    all.addAll(java.keySet());
    for (String name : all) {
      entries.add(new Entry("step", name, spec.getOrDefault(name, ""), java.getOrDefault(name, "")));
    }
  }

  private static String actorOf(String name) {
    for (String a : ACTORS) {
      if (name.length() > a.length() && name.startsWith(a) && Character.isUpperCase(name.charAt(a.length()))) {
        return a;
      }
    }
    return null;
  }

  /** {@code hiradix_cache.py::writing_check} to {@code writing_check} (the first function a tag names). */
  static String functionOf(String tag) {
    int at = tag.indexOf("::");
    String f = at < 0 ? tag : tag.substring(at + 2);
    Matcher m = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*").matcher(f.trim());
    return m.find() ? m.group() : f;
  }

  /**
   * SGLang's function name in the vocabulary's style: {@code writing_check} is {@code WritingCheck}; a leading
   * underscore goes, and a thread's loop function ({@code prefetch_thread_func}) is named by one pass of its
   * loop, {@code PrefetchThreadStep}.
   */
  static String camel(String function) {
    String f = function.replaceFirst("^_+", "").replaceFirst("_func$", "_step");
    StringBuilder b = new StringBuilder();
    for (String part : f.split("_")) {
      if (!part.isEmpty()) {
        b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
      }
    }
    return b.toString();
  }

  // ================================================================ helpers

  /** The text without TLA+ comments (line comments and the header's (* ... *) blocks). */
  private static String code(String tla) {
    return tla.replaceAll("(?s)\\(\\*.*?\\*\\)", "").replaceAll("\\\\\\*[^\\n]*", "");
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String orDash(String s) {
    return s.isEmpty() ? "-" : s;
  }

  private static Map<String, String> ordered(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }
}
