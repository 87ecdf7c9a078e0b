package dev.hicachesync.modelcheck.replay;

import dev.hicachesync.modelcheck.BadInputException;
import dev.hicachesync.modelcheck.value.TlaValue;
import dev.hicachesync.modelcheck.value.TlaValueParser;
import dev.hicachesync.modelcheck.InProcessTlc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tla2sany.semantic.OpDeclNode;
import tla2sany.semantic.OpDefNode;
import tlc2.tool.TLCState;
import tlc2.tool.impl.FastTool;
import tlc2.util.Context;
import util.SimpleFilenameToStream;

/**
 * The constants of a {@code MCHiCacheSync} model that a replay needs, named as in the spec, with the values
 * TLC gives them: TLC itself (SANY and its evaluator, in this JVM through {@link InProcessTlc}) reads the
 * model's cfg ({@code NAME = value} or {@code NAME <- Def}) and evaluates the {@code MC} module's definitions
 * ({@code Def == <<1, 2>>}, {@code Def == 2 * Other}).
 */
public record ModelConstants(int dp, int cp, int tp, int pp, String version, String policy, boolean storageOn,
    List<Integer> requests, int pagesPerKey, int deviceCap, int hostCap, Set<String> bugs, Set<String> knobs,
    List<Integer> deviceCaps, List<Integer> hostCaps, int waitingCap) {

  /** Constants with one request waiting at a time ({@code WaitingCap = 1}). */
  public ModelConstants(int dp, int cp, int tp, int pp, String version, String policy, boolean storageOn,
      List<Integer> requests, int pagesPerKey, int deviceCap, int hostCap, Set<String> bugs, Set<String> knobs,
      List<Integer> deviceCaps, List<Integer> hostCaps) {
    this(dp, cp, tp, pp, version, policy, storageOn, requests, pagesPerKey, deviceCap, hostCap, bugs, knobs,
        deviceCaps, hostCaps, 1);
  }

  /** Constants whose pools are {@code deviceCap} and {@code hostCap} on every rank. */
  public ModelConstants(int dp, int cp, int tp, int pp, String version, String policy, boolean storageOn,
      List<Integer> requests, int pagesPerKey, int deviceCap, int hostCap, Set<String> bugs, Set<String> knobs) {
    this(dp, cp, tp, pp, version, policy, storageOn, requests, pagesPerKey, deviceCap, hostCap, bugs, knobs,
        java.util.Collections.nCopies(dp * cp * tp * pp, deviceCap), java.util.Collections.nCopies(dp * cp * tp * pp, hostCap));
  }

  private static final Set<String> COMMON =
      Set.of("DP", "CP", "TP", "PP", "Policy", "StorageOn", "HostCap", "Bugs", "Knobs");

  /**
   * Reads {@code cfg} of the module {@code module} (whose other modules are in its directory or {@code spec});
   * a one-line error names what TLC could not read.
   */
  public static ModelConstants read(Path cfg, Path module, Path spec) throws BadInputException {
    Values r = evaluate(cfg, module, spec, Set.of("Version", "Requests", "PagesPerKey", "DeviceCap", "PoolSizes",
        "WaitingCap"));
    int ranks = r.integer("DP") * r.integer("CP") * r.integer("TP") * r.integer("PP");
    Set<String> knobs = r.strings("Knobs");
    List<Integer> dev = r.pools("PoolSizes", "dev", ranks, r.integer("DeviceCap"), knobs.contains("local_pool_sizes"));
    List<Integer> host = new ArrayList<>(r.pools("PoolSizes", "host", ranks, r.integer("HostCap"),
        knobs.contains("local_pool_sizes")));
    if (knobs.contains("uneven_capacity")) {
      host.set(0, host.get(0) + 1); // HostCapOf: rank 0's host pool one page larger than agreed
    }
    return new ModelConstants(r.integer("DP"), r.integer("CP"), r.integer("TP"), r.integer("PP"), r.string("Version"),
        r.string("Policy"), r.bool("StorageOn"), r.integers("Requests"), r.integer("PagesPerKey"), r.integer("DeviceCap"),
        r.integer("HostCap"), r.strings("Bugs"), knobs, dev, List.copyOf(host),
        r.values().containsKey("WaitingCap") ? r.integer("WaitingCap") : 1); // HiCachePipeline has none: one waits
  }

  /**
   * Reads a {@code HiCacheUnified} model ({@code MCHiCacheUnified_*.cfg}): version {@code unified}, requests
   * 1..NReq of one page each (each its own node), device and host pools as the spec bounds them (no device
   * tier: one page per request; host {@code HostCap}).
   */
  public static ModelConstants readUnified(Path cfg, Path module, Path spec) throws BadInputException {
    Values r = evaluate(cfg, module, spec, Set.of("NReq"));
    int n = r.integer("NReq");
    List<Integer> requests = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      requests.add(i);
    }
    return new ModelConstants(r.integer("DP"), r.integer("CP"), r.integer("TP"), r.integer("PP"), "unified",
        r.string("Policy"), r.bool("StorageOn"), requests, 1, n, r.integer("HostCap"), r.strings("Bugs"),
        r.strings("Knobs"));
  }

  /**
   * Reads a {@code HiCacheUnifiedPipeline} model ({@code MCHiCacheUnifiedPipeline_*.cfg}) as {@link #readUnified}
   * does (storage is always on there), with its {@code Drain}.
   */
  static UnifiedPipelineReplay.Constants readUnifiedPipeline(Path cfg, Path module, Path spec)
      throws BadInputException {
    Values r = evaluate(cfg, module, spec, Set.of("NReq", "Drain"));
    int n = r.integer("NReq");
    List<Integer> requests = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      requests.add(i);
    }
    return new UnifiedPipelineReplay.Constants(new ModelConstants(r.integer("DP"), r.integer("CP"), r.integer("TP"),
        r.integer("PP"), "unified", r.string("Policy"), true, requests, 1, n, r.integer("HostCap"),
        r.strings("Bugs"), r.strings("Knobs")), r.string("Drain"));
  }

  /** The values of {@code names} in {@code cfg} of {@code module}, as TLC computes them (a module with other constants). */
  static Map<String, TlaValue> values(Path cfg, Path module, Path spec, Set<String> names) throws BadInputException {
    return evaluate(cfg, module, spec, names).values();
  }

  /** These constants with {@code bugs}, {@code version} switched: a fixed twin differs in one of them. */
  public ModelConstants with(String version, Set<String> bugs) {
    return new ModelConstants(dp, cp, tp, pp, version, policy, storageOn, requests, pagesPerKey, deviceCap, hostCap,
        bugs, knobs, deviceCaps, hostCaps, waitingCap);
  }

  /**
   * The values of the constants {@link #COMMON} and {@code more}, as TLC computes them when it starts checking
   * the model (the cfg's assignments, the MC module's definitions for its substitutions).
   */
  private static Values evaluate(Path cfg, Path module, Path spec, Set<String> more) throws BadInputException {
    String cfgName = cfg.getFileName().toString();
    String moduleName = module.getFileName().toString();
    if (!cfgName.endsWith(".cfg") || !moduleName.endsWith(".tla")) {
      throw new BadInputException("a model is a .cfg and a .tla module, not " + cfgName + " and " + moduleName);
    }
    if (!Files.isRegularFile(cfg) || !Files.isRegularFile(module)) {
      throw new BadInputException("cannot read the model: " + (Files.isRegularFile(cfg) ? module : cfg) + " not found");
    }
    Set<String> names = new HashSet<>(COMMON);
    names.addAll(more);
    String dir = module.toAbsolutePath().getParent().toString();
    String cfgBase = cfg.toAbsolutePath().toString();
    return InProcessTlc.call(() -> {
      Map<String, TlaValue> values = new HashMap<>();
      try {
        FastTool tool = new FastTool(dir, moduleName.substring(0, moduleName.length() - ".tla".length()),
            cfgBase.substring(0, cfgBase.length() - ".cfg".length()),
            new SimpleFilenameToStream(new String[] {dir, spec.toAbsolutePath().toString()}));
        for (OpDeclNode constant : tool.getRootModule().getConstantDecls()) {
          String name = constant.getName().toString();
          if (names.contains(name)) {
            Object v = tool.lookup(constant);
            Object value = v instanceof OpDefNode def && def.getArity() == 0
                ? tool.eval(def.getBody(), Context.Empty, TLCState.Empty) : v;
            values.put(name, TlaValueParser.parse(String.valueOf(value)));
          }
        }
      } catch (RuntimeException e) {
        // SANY's and TLC's errors (a constant the cfg leaves unset, a definition that is not there) are
        // runtime exceptions with TLC's message; a value TlaValueParser cannot read is one too.
        throw new BadInputException(cfgName + ": " + oneLine(e.getMessage()));
      }
      return new Values(cfgName, values);
    });
  }

  private static String oneLine(String message) {
    return message == null ? "TLC could not read the model" : String.join(" ", message.trim().split("\\s*\\n\\s*"));
  }

  /** The constants' values, read by name and type. */
  private record Values(String cfg, Map<String, TlaValue> values) {

    TlaValue value(String name) throws BadInputException {
      TlaValue v = values.get(name);
      if (v == null) {
        throw new BadInputException(cfg + " does not set the constant " + name);
      }
      return v;
    }

    int integer(String name) throws BadInputException {
      if (value(name) instanceof TlaValue.Int i) {
        return (int) i.value();
      }
      throw new BadInputException(name + " is not a number in " + cfg);
    }

    String string(String name) throws BadInputException {
      if (value(name) instanceof TlaValue.Str s) {
        return s.value();
      }
      throw new BadInputException(name + " is not a string in " + cfg);
    }

    boolean bool(String name) throws BadInputException {
      if (value(name) instanceof TlaValue.Bool b) {
        return b.value();
      }
      throw new BadInputException(name + " is not TRUE or FALSE in " + cfg);
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
      throw new BadInputException(name + " is not a sequence in " + cfg);
    }

    /**
     * Each rank's pool {@code field} as the spec's {@code PoolTable} has it: the model's {@code PoolSizes} entry
     * with {@code local} (knob local_pool_sizes), else their MIN (the start-up agreement); {@code fallback} on
     * every rank when the model sets no {@code PoolSizes}.
     */
    List<Integer> pools(String name, String field, int ranks, int fallback, boolean local) throws BadInputException {
      TlaValue table = values.get(name);
      if (table == null) {
        return java.util.Collections.nCopies(ranks, fallback);
      }
      List<Integer> own = new ArrayList<>();
      for (int r = 0; r < ranks; r++) {
        TlaValue entry = table instanceof TlaValue.Fn f ? f.mapping().get(new TlaValue.Int(r))
            : table instanceof TlaValue.Tuple t && r < t.elements().size() ? t.elements().get(r) : null;
        if (!(entry instanceof TlaValue.Rec rec) || !(rec.fields().get(field) instanceof TlaValue.Int i)) {
          throw new BadInputException(name + " has no " + field + " pool for rank " + r + " in " + cfg);
        }
        own.add((int) i.value());
      }
      int min = own.stream().mapToInt(Integer::intValue).min().orElse(fallback);
      return local ? List.copyOf(own) : java.util.Collections.nCopies(ranks, min);
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
      throw new BadInputException(name + " is not a set in " + cfg);
    }
  }
}
