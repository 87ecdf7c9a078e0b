package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.modelcheck.value.TlaValueParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The constants of a {@code MCHiCacheSync} model that a replay needs, named as in the spec: read from the
 * model's cfg ({@code NAME = value} or {@code NAME <- Def}) and, for substitutions, the {@code MC} module's
 * definitions ({@code Def == <<1, 2>>}, {@code Def == Other}, {@code Def == 2 * Other}).
 */
public record ModelConstants(int dp, int cp, int tp, int pp, String version, String policy, boolean storageOn,
    List<Integer> requests, int pagesPerKey, int deviceCap, int hostCap, Set<String> bugs, Set<String> knobs) {

  private static final Pattern ASSIGN = Pattern.compile("^\\s*([A-Za-z][A-Za-z0-9_]*)\\s*(=|<-)\\s*(.+?)\\s*$");
  private static final Pattern DEF = Pattern.compile("^([A-Za-z][A-Za-z0-9_]*)\\s*==\\s*(.+?)\\s*$");
  private static final Pattern TIMES = Pattern.compile("^(\\d+)\\s*\\*\\s*([A-Za-z][A-Za-z0-9_]*)$");

  /** Reads {@code cfg} and the module {@code module} it belongs to; a one-line error names what is missing. */
  public static ModelConstants read(Path cfg, Path module) throws BadInputException {
    Resolver r = resolver(cfg, module);
    return new ModelConstants(r.integer("DP"), r.integer("CP"), r.integer("TP"), r.integer("PP"), r.string("Version"),
        r.string("Policy"), r.bool("StorageOn"), r.integers("Requests"), r.integer("PagesPerKey"), r.integer("DeviceCap"),
        r.integer("HostCap"), r.strings("Bugs"), r.strings("Knobs"));
  }

  /**
   * Reads a {@code HiCacheUnified} model ({@code MCHiCacheUnified_*.cfg}): version {@code unified}, requests
   * 1..NReq of one page each (each its own node), device and host pools as the spec bounds them (no device
   * tier: one page per request; host {@code HostCap}).
   */
  public static ModelConstants readUnified(Path cfg, Path module) throws BadInputException {
    Resolver r = resolver(cfg, module);
    int n = r.integer("NReq");
    List<Integer> requests = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      requests.add(i);
    }
    return new ModelConstants(r.integer("DP"), r.integer("CP"), r.integer("TP"), r.integer("PP"), "unified",
        r.string("Policy"), r.bool("StorageOn"), requests, 1, n, r.integer("HostCap"), r.strings("Bugs"),
        r.strings("Knobs"));
  }

  /** These constants with {@code bugs}, {@code version} switched: a fixed twin differs in one of them. */
  public ModelConstants with(String version, Set<String> bugs) {
    return new ModelConstants(dp, cp, tp, pp, version, policy, storageOn, requests, pagesPerKey, deviceCap, hostCap,
        bugs, knobs);
  }

  /** The cfg's assignments and the module's definitions. */
  private static Resolver resolver(Path cfg, Path module) throws BadInputException {
    Map<String, String> assigned = new HashMap<>();
    Map<String, String> defs = new HashMap<>();
    try {
      for (String line : Files.readAllLines(cfg)) {
        Matcher m = ASSIGN.matcher(line.replaceFirst("\\\\\\*.*$", ""));
        if (m.matches()) {
          assigned.put(m.group(1), (m.group(2).equals("<-") ? "@" : "") + m.group(3));
        }
      }
      for (String line : Files.readAllLines(module)) {
        Matcher m = DEF.matcher(line.replaceFirst("\\\\\\*.*$", "").trim());
        if (m.matches()) {
          defs.put(m.group(1), m.group(2));
        }
      }
    } catch (IOException e) {
      throw new BadInputException("cannot read the model: " + e.getMessage());
    }
    return new Resolver(cfg, assigned, defs);
  }

  /** Resolves constant names to values through the cfg and the module. */
  private record Resolver(Path cfg, Map<String, String> assigned, Map<String, String> defs) {

    TlaValue value(String name) throws BadInputException {
      String text = assigned.get(name);
      if (text == null) {
        throw new BadInputException(cfg.getFileName() + " does not set the constant " + name);
      }
      return text.startsWith("@") ? definition(text.substring(1), 0) : parse(name, text);
    }

    private TlaValue definition(String def, int depth) throws BadInputException {
      String text = defs.get(def);
      if (text == null || depth > 8) {
        throw new BadInputException("cannot evaluate " + def + " (not a plain definition of the MC module)");
      }
      if (defs.containsKey(text)) {
        return definition(text, depth + 1);
      }
      Matcher m = TIMES.matcher(text);
      if (m.matches() && definition(m.group(2), depth + 1) instanceof TlaValue.Int i) {
        return new TlaValue.Int(Long.parseLong(m.group(1)) * i.value());
      }
      return parse(def, text);
    }

    private TlaValue parse(String name, String text) throws BadInputException {
      try {
        return TlaValueParser.parse(text);
      } catch (RuntimeException e) {
        throw new BadInputException("cannot read the value of " + name + ": " + text);
      }
    }

    int integer(String name) throws BadInputException {
      if (value(name) instanceof TlaValue.Int i) {
        return (int) i.value();
      }
      throw new BadInputException(name + " is not a number in " + cfg.getFileName());
    }

    String string(String name) throws BadInputException {
      if (value(name) instanceof TlaValue.Str s) {
        return s.value();
      }
      throw new BadInputException(name + " is not a string in " + cfg.getFileName());
    }

    boolean bool(String name) throws BadInputException {
      if (value(name) instanceof TlaValue.Bool b) {
        return b.value();
      }
      throw new BadInputException(name + " is not TRUE or FALSE in " + cfg.getFileName());
    }

    List<Integer> integers(String name) throws BadInputException {
      List<Integer> out = new ArrayList<>();
      if (value(name) instanceof TlaValue.Tuple t) {
        for (TlaValue v : t.elements()) {
          if (!(v instanceof TlaValue.Int i)) {
            throw new BadInputException(name + " is not a sequence of numbers");
          }
          out.add((int) i.value());
        }
        return out;
      }
      throw new BadInputException(name + " is not a sequence in " + cfg.getFileName());
    }

    Set<String> strings(String name) throws BadInputException {
      Set<String> out = new TreeSet<>();
      if (value(name) instanceof TlaValue.SetValue s) {
        for (TlaValue v : s.elements()) {
          if (!(v instanceof TlaValue.Str str)) {
            throw new BadInputException(name + " is not a set of strings");
          }
          out.add(str.value());
        }
        return out;
      }
      throw new BadInputException(name + " is not a set in " + cfg.getFileName());
    }
  }
}
