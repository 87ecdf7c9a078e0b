---- MODULE AgreementFormsSync ----
\* HiCacheSync's AgreeSettledAt compares the ranks of a domain through the set of their <<S7 count,
\* value>> pairs (spec/HiCacheSync.tla), so that TLC evaluates each rank's value once. This module
\* states the comparison plainly, every two ranks of a domain that made as many S7 decisions, for
\* AgreementFormsTest to check that the two are one predicate in every reachable state of its models.
EXTENDS MCHiCacheSync

PairwiseSettledAt(f(_)) ==
    \A D \in SyncDomains :
        Lockstep(D) => \A q1, q2 \in D : (S7Unsynced \/ S7Count(q1) = S7Count(q2)) => f(q1) = f(q2)

\* The values PrefetchAgreement and AckAgreement compare between settled ranks.
PrefetchDecisions(q) == [i \in 1 .. NR |-> PfDecision(pf[q][i])]
SettledQueues(q) == <<rvq[q], rlq[q]>>

SettledFormsAgree ==
    /\ AgreeSettledAt(PrefetchDecisions) = PairwiseSettledAt(PrefetchDecisions)
    /\ AgreeSettledAt(SettledQueues) = PairwiseSettledAt(SettledQueues)

\* The pairwise forms alone: where TLC finds them violated, the model has states on which the two
\* forms were compared with the answer FALSE.
PairwisePrefetchDecisions == PairwiseSettledAt(PrefetchDecisions)
PairwiseSettledQueues == PairwiseSettledAt(SettledQueues)

\* A state constraint for models whose whole state space is too large for a test: every state of the
\* first 8 BFS levels (pre20460 at CP 2 with storage, unreduced: 1,682 states; the pairwise
\* PrefetchAgreement fails at level 3).
Shallow == TLCGet("level") < 8
====
