------------------------------ MODULE Topology ------------------------------
(***************************************************************************)
(* Ranks, coordinates and process groups of one SGLang deployment.         *)
(*                                                                         *)
(* Modelled (SGLang python/sglang/srt/distributed/parallel_state.py and    *)
(* layers/dp_attention.py): inside one pipeline stage                      *)
(*   attn_dp_size * attn_cp_size * attn_tp_size = tp_size,                 *)
(*   tp_rank = (dp * CP + cp) * TP + tp      (attn_tp varies fastest),     *)
(* and stages are stacked: rank = stage * (DP*CP*TP) + tp_rank.            *)
(* Groups: attn_tp = same (stage, dp, cp); attn_cp = same (stage, dp, tp); *)
(* tp = same stage; pp = same tp_rank across stages.                       *)
(* The sync domain of a rank is every rank that must hold the same radix   *)
(* tree: all (cp, tp) ranks of its attention-DP replica, on every stage.   *)
(*                                                                         *)
(* Abstracted: ranks are plain numbers 0..N-1 (the global rank); process   *)
(* groups are sets of ranks (group creation is not modelled here).         *)
(***************************************************************************)
EXTENDS Naturals, FiniteSets

CONSTANTS
    DP,     \* attention data-parallel replicas (attn_dp_size)
    CP,     \* attention context-parallel size (attn_cp_size)
    TP,     \* attention tensor-parallel size (attn_tp_size)
    PP      \* pipeline stages (pp_size); 1 in HiCacheSync's models

ASSUME /\ DP \in Nat \ {0} /\ CP \in Nat \ {0}
       /\ TP \in Nat \ {0} /\ PP \in Nat \ {0}

\* Ranks of one pipeline stage (the tp group size) and of the whole job.
StageSize == DP * CP * TP
Ranks     == 0 .. (PP * StageSize - 1)

\* Coordinates of a rank.
StageOf(r) == r \div StageSize               \* pp_rank
TpRank(r)  == r % StageSize                  \* tp_rank inside the stage
DpOf(r)    == TpRank(r) \div (CP * TP)       \* attn_dp_rank
CpOf(r)    == (TpRank(r) \div TP) % CP       \* attn_cp_rank
TpOf(r)    == TpRank(r) % TP                 \* attn_tp_rank

\* The rank with the given coordinates (inverse of the above).
RankAt(s, d, c, t) == s * StageSize + (d * CP + c) * TP + t

\* Member sets of the groups of rank r.
AttnTpMembers(r) == {q \in Ranks : StageOf(q) = StageOf(r) /\ DpOf(q) = DpOf(r)
                                    /\ CpOf(q) = CpOf(r)}
AttnCpMembers(r) == {q \in Ranks : StageOf(q) = StageOf(r) /\ DpOf(q) = DpOf(r)
                                    /\ TpOf(q) = TpOf(r)}
TpMembers(r)     == {q \in Ranks : StageOf(q) = StageOf(r)}
PpMembers(r)     == {q \in Ranks : TpRank(q) = TpRank(r)}
\* The CP x TP grid of one replica on one stage (what #20460 reduces over).
StageDomain(r)   == {q \in Ranks : StageOf(q) = StageOf(r) /\ DpOf(q) = DpOf(r)}
\* The sync domain: every rank that must hold the same tree as r.
\* (A constant table: TLC evaluates zero-argument constant definitions once, at start-up, and
\* the actions and invariants ask for a rank's domain in every state.)
SyncDomainTable  == [r \in Ranks |-> {q \in Ranks : DpOf(q) = DpOf(r)}]
SyncDomain(r)    == SyncDomainTable[r]

SyncDomains == {SyncDomain(r) : r \in Ranks}
\* One rank per sync domain, its lowest: a check over every domain visits each domain once.
DomainLeaders == {r \in Ranks : \A q \in SyncDomain(r) : r <= q}

=============================================================================
