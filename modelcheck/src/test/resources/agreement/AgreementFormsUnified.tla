---- MODULE AgreementFormsUnified ----
\* HiCacheUnified's AgreeAt compares every rank with rank 0 (spec/HiCacheUnified.tla), so that TLC
\* evaluates each rank's value once. This module states the comparison over every pair of ranks, for
\* AgreementFormsTest to check that the two are one predicate in every reachable state.
EXTENDS MCHiCacheUnified, TLC

PairwiseAgreeAt(f(_)) == Lockstep => \A r1, r2 \in Ranks : f(r1) = f(r2)

\* The values of TreeAgreement, AckAgreement, PrefetchAgreement and AllocAgreement.
Trees(r) == <<tree[r], reqIdx[r], waiting[r]>>
Popped(r) == popped[r]
Prefetches(r) == <<pf[r].on, pf[r].host, pf[r].comp>>
HostFree(r) == hostFree[r]

AgreeFormsAgree ==
    /\ AgreeAt(Trees) = PairwiseAgreeAt(Trees)
    /\ AgreeAt(Popped) = PairwiseAgreeAt(Popped)
    /\ AgreeAt(Prefetches) = PairwiseAgreeAt(Prefetches)
    /\ AgreeAt(HostFree) = PairwiseAgreeAt(HostFree)

PairwiseTrees == PairwiseAgreeAt(Trees)
PairwiseHostFree == PairwiseAgreeAt(HostFree)

\* A state constraint for models whose whole state space is too large for a test: every state of the
\* first 40 BFS levels (the pairwise AllocAgreement fails at level 34 of unified_buffer_stage_local).
Shallow == TLCGet("level") < 40
====
