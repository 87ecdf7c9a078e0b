---- MODULE SyncReductionProbe ----
\* MCHiCacheSyncReduced's ReducedSpec stores no state between the rounds of eager completions it fuses,
\* nor the state right after a step's RECV, which it takes together with the rounds after it; it
\* checks the invariants there itself (ReducedInvariants). Each probe fails only in such a state:
\*  - ProbeMidRound: some rank waits at the second stage of S123 (its TP group), which in a CP x TP
\*    grid comes after the CP round and before the TP round;
\*  - ProbeAfterRecv: some rank waits at the first stage of S123 (its CP group), which every rank
\*    posts as RECV completes, before the first round.
\* SyncReductionTest checks each three ways: with Spec (violated), ReducedSpec with the probe among
\* the checked invariants (still violated), and ReducedSpec without (holds: why a reduced cfg may
\* list only invariants the fusion checks).
EXTENDS MCHiCacheSyncReduced

ProbeAt(ls, cl) ==
    ~(\E r \in Ranks : cl[r]["sched"] # C!NoCall /\ cl[r]["sched"].site = "S123" /\ cl[r]["sched"].stage = 2)

ProbeMidRound == ProbeAt([q \in Ranks |-> LS(q)], coll)

ProbeAfterRecvAt(ls, cl) ==
    ~(\E r \in Ranks : cl[r]["sched"] # C!NoCall /\ cl[r]["sched"].site = "S123" /\ cl[r]["sched"].stage = 1)

ProbeAfterRecv == ProbeAfterRecvAt([q \in Ranks |-> LS(q)], coll)
====
