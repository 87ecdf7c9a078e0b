---- MODULE SyncReductionProbe ----
\* MCHiCacheSyncReduced's ReducedSpec stores no state between the rounds of eager completions it fuses;
\* it checks the invariants there itself (ReducedInvariants). This probe fails only in such a
\* state: some rank waits at the second stage of S123 (its TP group), which in a CP x TP grid
\* comes after the CP round and before the TP round. SyncReductionTest checks it three ways: with
\* Spec (violated), ReducedSpec with the probe among the checked invariants (still violated),
\* and ReducedSpec without (holds: why a reduced cfg may list only invariants the fusion checks).
EXTENDS MCHiCacheSyncReduced

ProbeAt(ls, cl) ==
    ~(\E r \in Ranks : cl[r]["sched"] # C!NoCall /\ cl[r]["sched"].site = "S123" /\ cl[r]["sched"].stage = 2)

ProbeMidRound == ProbeAt([q \in Ranks |-> LS(q)], coll)
====
