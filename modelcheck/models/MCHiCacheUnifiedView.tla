------------------------ MODULE MCHiCacheUnifiedView ------------------------
\* MCHiCacheUnified with its rank-symmetry view, for SAFETY models (the ad-hoc safety part of version unified,
\* the catalogue's unified_cp2tp2). A module of its own: TLC orders record fields and set elements by when their
\* names were first read, so new definitions in MCHiCacheUnified itself would change which counterexample TLC
\* reports for the catalogue's unified bug models (a lasso the replays compare against).
EXTENDS MCHiCacheUnified, TLC     \* TLC: TLCEval and Permutations

\* Rank symmetry, for SAFETY models only: the cfg says `VIEW RankSymmetryView` (the runner refuses a
\* VIEW together with temporal properties: TLC's liveness checking is unsound when states are merged).
\* Every group of HiCacheUnified has all of Ranks as members (Dom, HG, PFG, SYG: one sync domain, and S7
\* and the completion sync reduce over one group), so ANY permutation of the ranks maps every group onto
\* itself: the view is the bag (multiset) of the ranks' views, and TLC keeps one state per orbit of the
\* n! permutations. Sound only where nothing singles out a rank; three places of HiCacheUnified read
\* rank 0, and each is the same on every rank where the view is used (no Knob, no Bug):
\*  - RecvComplete's `take` reads waiting[0] and reqIdx[0] where every rank posted RECV: TreeAgreement
\*    checks that very point (Lockstep), so up to its first violation, which a symmetric invariant is
\*    found at, every rank reads the same; a cfg with this view lists TreeAgreement (SymmetryViewCoversVariablesTest);
\*  - EventsComplete reads storage[0]: storage changes only under Knobs attach, attach_steps, detach;
\*  - SchedAbortCheck reads env[0].clk only under Knob wait_timeout.
\* Every invariant quantifies over all ranks alike (AgreeAt compares each with rank 0: all equal), so
\* it holds in a state iff in all its images. With a Knob or a Bug the view is every variable as it
\* is (no reduction), not a guess about which of them single out a rank.
CallView(c) == IF c = C!NoCall THEN c ELSE [c EXCEPT !.grp = [kind |-> c.grp.kind, ch |-> c.grp.ch]]
RankView(r) == <<pc[r], reqIdx[r], waiting[r], tree[r], hostFree[r], hostOwned[r], pf[r], q[r], ackv[r],
                 storage[r], alive[r], env[r], popped[r], [th \in Threads |-> CallView(coll[r][th])]>>
\* RankView lists EVERY rank-indexed variable of HiCacheUnified.tla, and the view adds attachDone, the one
\* that is not: a variable left out would merge states that differ in it, which is unsound. Add new ones.
RankSymmetryView ==
    IF Knobs = {} /\ Bugs = {}
    THEN LET v == TLCEval([r \in Ranks |-> RankView(r)])
         IN  <<attachDone, [x \in {v[r] : r \in Ranks} |-> Cardinality({r \in Ranks : v[r] = x})]>>
    ELSE vars
\* The reference the bag is tested against (UnifiedViewCountsTest): the set of every image of the state
\* under the n! permutations of the ranks (TLC's Permutations); the same partition of the states, at n!
\* images per generated state.
OrbitView ==
    LET v == TLCEval([r \in Ranks |-> RankView(r)])
    IN  <<attachDone, {[r \in Ranks |-> v[p[r]]] : p \in Permutations(Ranks)}>>

=============================================================================
