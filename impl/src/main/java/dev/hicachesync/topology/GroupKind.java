package dev.hicachesync.topology;

/** The process groups a rank belongs to (PROTOCOL.md §2); the lower-case name is the shared vocabulary. */
public enum GroupKind {
  /** The attn_tp ranks with the same (dp, cp, pp): consecutive global ranks. */
  ATTN_TP("attn_tp"),
  /** The attn_cp ranks with the same (dp, tp, pp): stride attn_tp. */
  ATTN_CP("attn_cp"),
  /** The cp×tp ranks of one dp replica in one stage: the "G" reduction of the sync points (§3). */
  CP_TP("cp_tp"),
  /** All TP ranks (dp·cp·tp of them) of one pipeline stage. */
  TP("tp"),
  /** The same TP position across all pipeline stages. */
  PP("pp"),
  /** All cp×tp ranks of one dp replica in every stage: the ranks that must hold identical trees. */
  SYNC_DOMAIN("sync_domain");

  private final String label;

  GroupKind(String label) {
    this.label = label;
  }

  /** Returns the shared-vocabulary name, e.g. {@code attn_tp}. */
  public String label() {
    return label;
  }
}
