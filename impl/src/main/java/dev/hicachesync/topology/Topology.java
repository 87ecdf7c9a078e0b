package dev.hicachesync.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The rank grid of one deployment: {@code dp} attention-DP replicas × {@code cp} attention-CP shards ×
 * {@code tp} attention-TP positions per stage, × {@code pp} pipeline stages.
 *
 * <p>Immutable; any thread. Ranks follow SGLang's {@code parallel_state.py}: {@code tp_rank = (dp·CP +
 * cp)·TP + tp}, {@code rank = pp·tpSize + tp_rank}. Groups are sorted lists of global ranks.
 */
public record Topology(int dp, int cp, int tp, int pp) {

  /** Validates the sizes; each must be at least 1 and the world must fit in an int. */
  public Topology {
    check("dp", dp);
    check("cp", cp);
    check("tp", tp);
    check("pp", pp);
    long world = (long) dp * cp * tp * pp;
    if (world > Integer.MAX_VALUE) {
      throw new InvalidTopologyException("world size dp*cp*tp*pp = " + world + " is too large");
    }
  }

  /** Returns the validated topology; throws {@link InvalidTopologyException} naming a size below 1. */
  public static Topology of(int dp, int cp, int tp, int pp) {
    return new Topology(dp, cp, tp, pp);
  }

  /**
   * Parses {@code "dp=1,cp=2,tp=2,pp=1"} (any order, spaces allowed, a missing size is 1).
   *
   * @throws InvalidTopologyException naming the bad entry
   */
  public static Topology parse(String spec) {
    Map<String, Integer> sizes = new LinkedHashMap<>(Map.of("dp", 1, "cp", 1, "tp", 1, "pp", 1));
    if (spec == null || spec.isBlank()) {
      throw new InvalidTopologyException("empty topology spec; expected e.g. dp=1,cp=2,tp=2,pp=1");
    }
    for (String part : spec.split(",")) {
      String[] kv = part.trim().split("=", -1);
      String key = kv[0].trim().toLowerCase(Locale.ROOT);
      if (kv.length != 2 || !sizes.containsKey(key)) {
        throw new InvalidTopologyException(
            "bad topology entry '" + part.trim() + "'; expected dp=N, cp=N, tp=N or pp=N");
      }
      try {
        sizes.put(key, Integer.parseInt(kv[1].trim()));
      } catch (NumberFormatException e) {
        throw new InvalidTopologyException(key + " must be an integer, got '" + kv[1].trim() + "'");
      }
    }
    return of(sizes.get("dp"), sizes.get("cp"), sizes.get("tp"), sizes.get("pp"));
  }

  private static void check(String name, int value) {
    if (value < 1) {
      throw new InvalidTopologyException(name + " must be >= 1, got " + value);
    }
  }

  /** Returns dp·cp·tp·pp, the number of ranks. */
  public int worldSize() {
    return tpSize() * pp;
  }

  /** Returns dp·cp·tp, the number of TP ranks in one pipeline stage. */
  public int tpSize() {
    return dp * cp * tp;
  }

  /** Returns cp·tp, the ranks of one {@link GroupKind#CP_TP} group (one replica's ranks within one stage). */
  public int cpTpSize() {
    return cp * tp;
  }

  /** Returns {@code "dp,cp,tp,pp"}, e.g. {@code 1,2,2,1}: the sizes alone, as report tables and model names show them. */
  public String sizes() {
    return dp + "," + cp + "," + tp + "," + pp;
  }

  /** Returns the coordinates of global {@code rank}. */
  public RankCoord coords(int rank) {
    checkRank(rank);
    int stage = rank / tpSize();
    int tpRank = rank % tpSize();
    return new RankCoord(tpRank / (cp * tp), (tpRank / tp) % cp, tpRank % tp, stage);
  }

  /** Returns the global rank of {@code c}; throws {@link InvalidTopologyException} if out of the grid. */
  public int rankOf(RankCoord c) {
    checkCoord("dp", c.dp(), dp);
    checkCoord("cp", c.cp(), cp);
    checkCoord("tp", c.tp(), tp);
    checkCoord("pp", c.pp(), pp);
    return c.pp() * tpSize() + (c.dp() * cp + c.cp()) * tp + c.tp();
  }

  /** Returns the TP rank (position within its stage) of global {@code rank}. */
  public int tpRank(int rank) {
    checkRank(rank);
    return rank % tpSize();
  }

  /** Returns the attn_tp group of {@code rank}: same dp, cp and stage. */
  public List<Integer> attnTpGroup(int rank) {
    return group(GroupKind.ATTN_TP, rank);
  }

  /** Returns the attn_cp group of {@code rank}: same dp, attn_tp position and stage. */
  public List<Integer> attnCpGroup(int rank) {
    return group(GroupKind.ATTN_CP, rank);
  }

  /** Returns the cp×tp group of {@code rank}: its dp replica within its stage (the sync reduction "G"). */
  public List<Integer> cpTpGroup(int rank) {
    return group(GroupKind.CP_TP, rank);
  }

  /** Returns the tp group of {@code rank}: all TP ranks of its stage. */
  public List<Integer> tpGroup(int rank) {
    return group(GroupKind.TP, rank);
  }

  /** Returns the pp group of {@code rank}: the same TP position in every stage. */
  public List<Integer> ppGroup(int rank) {
    return group(GroupKind.PP, rank);
  }

  /** Returns the sync domain of {@code rank}: all cp×tp ranks of its dp replica in every stage. */
  public List<Integer> syncDomain(int rank) {
    return group(GroupKind.SYNC_DOMAIN, rank);
  }

  /** Returns the sorted members of the {@code kind} group containing {@code rank}. */
  public List<Integer> group(GroupKind kind, int rank) {
    RankCoord me = coords(rank);
    List<Integer> members = new ArrayList<>();
    for (int r = 0; r < worldSize(); r++) {
      RankCoord o = coords(r);
      if (sameGroup(kind, me, o)) {
        members.add(r); // ascending r: the list is sorted by construction
      }
    }
    return List.copyOf(members);
  }

  private static boolean sameGroup(GroupKind kind, RankCoord a, RankCoord b) {
    return switch (kind) {
      case ATTN_TP -> a.dp() == b.dp() && a.cp() == b.cp() && a.pp() == b.pp();
      case ATTN_CP -> a.dp() == b.dp() && a.tp() == b.tp() && a.pp() == b.pp();
      case CP_TP -> a.dp() == b.dp() && a.pp() == b.pp();
      case TP -> a.pp() == b.pp();
      case PP -> a.dp() == b.dp() && a.cp() == b.cp() && a.tp() == b.tp();
      case SYNC_DOMAIN -> a.dp() == b.dp();
    };
  }

  /** Returns every distinct group of {@code kind}, ordered by first member. */
  public List<List<Integer>> groups(GroupKind kind) {
    TreeSet<List<Integer>> distinct = new TreeSet<>(Topology::compareGroups);
    for (int r = 0; r < worldSize(); r++) {
      distinct.add(group(kind, r));
    }
    return List.copyOf(distinct);
  }

  /**
   * Returns every distinct member list of every {@link GroupKind}, deduplicated and sorted (shorter first,
   * then lexicographically), so that every rank creates every group in the same order (B16, #15805).
   */
  public List<List<Integer>> allDistinctGroups() {
    TreeSet<List<Integer>> distinct = new TreeSet<>(Topology::compareGroups);
    for (GroupKind kind : GroupKind.values()) {
      distinct.addAll(groups(kind));
    }
    return List.copyOf(distinct);
  }

  /** Orders groups by size, then lexicographically by member: a total, rank-independent order. */
  static int compareGroups(List<Integer> a, List<Integer> b) {
    int bySize = Integer.compare(a.size(), b.size());
    if (bySize != 0) {
      return bySize;
    }
    Comparator<Integer> natural = Comparator.naturalOrder();
    for (int i = 0; i < a.size(); i++) {
      int c = natural.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private void checkRank(int rank) {
    if (rank < 0 || rank >= worldSize()) {
      throw new InvalidTopologyException(
          "rank " + rank + " is outside world of size " + worldSize() + " (" + this + ")");
    }
  }

  private static void checkCoord(String name, int value, int size) {
    if (value < 0 || value >= size) {
      throw new InvalidTopologyException(name + " coordinate " + value + " is outside [0, " + size + ")");
    }
  }

  @Override
  public String toString() {
    return "dp=" + dp + ",cp=" + cp + ",tp=" + tp + ",pp=" + pp;
  }
}
