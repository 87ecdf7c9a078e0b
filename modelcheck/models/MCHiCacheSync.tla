---------------------------- MODULE MCHiCacheSync ----------------------------
(***************************************************************************)
(* Bounds for model checking HiCacheSync. Only bounds live here; the cfg   *)
(* files pick a topology, a version, a policy and one bound set.           *)
(***************************************************************************)
EXTENDS HiCacheSync, TLC     \* TLC: TLCEval, for RankSymmetryView

\* Request streams (keys). Two keys and a device that holds one key force an eviction
\* (key 1 must leave the device for key 2); a third request for key 1 then hits the host
\* (load-back) or a prefetch. Longer streams repeat these shapes without new interleavings
\* of the sync points.
MCRequests3 == <<1, 2, 1>>
\* Two requests: insert + write-through + eviction under pressure (B1's scenario).
MCRequests2 == <<1, 2>>
\* One request: a prefetch (storage on) or an insertion, write-through, storage backup.
MCRequests1 == <<1>>
\* Three distinct keys on a device that holds two: the third admission chooses one of two
\* device victims (the LRU order decides; knob local_clock).
MCRequests3d == <<1, 2, 3>>
\* Load-back of key 1 (as MCRequests3), then key 2 again: its admission needs key 1's device
\* page (abort_running: a node whose locks an abort dropped can be evicted under its load-back).
MCRequests4 == <<1, 2, 1, 2>>

\* One page per key keeps S5/S7 values in {0, 1} (MIN still decides revoke/read/insert);
\* two pages let S5 insert a strict prefix (partial prefetch).
MCPages1 == 1
MCPages2 == 2

\* Device holds exactly one key: every second distinct key forces a device eviction.
MCDeviceCap == MCPages1
MCDeviceCap2 == MCPages2
\* Host holds two keys: a prefetch and a write-through can coexist; a third forces host eviction.
MCHostCap == 2 * MCPages1
MCHostCap2 == 2 * MCPages2

\* Host holds one key: the second write-through evicts the first host copy (knob uneven_capacity).
MCHostCap1 == MCPages1

\* Threshold of one page: S7 MIN = 0 revokes, MIN >= 1 reads.
MCThreshold == 1

\* Pool sizes per rank (PoolSizes). Equal pools: every rank has DeviceCap and HostCap.
MCEqualPools == [r \in Ranks |-> [dev |-> DeviceCap, host |-> HostCap]]
\* Unequal pools: rank 0's host pool holds two keys, the others' one (as if configured from
\* different free memory): the second write-through evicts a host copy on some ranks only,
\* unless the ranks agree on the sizes at start-up (the MIN).
MCUnequalPools == [r \in Ranks |-> [dev |-> DeviceCap, host |-> IF r = 0 THEN 2 * MCPages1 ELSE MCPages1]]

\* Rank symmetry (issue 13), for SAFETY models only: the cfg says `VIEW RankSymmetryView`, and
\* the runner refuses a VIEW together with temporal properties (TLC's liveness checking is
\* unsound when states are merged). Ranks are numbers (the topology computes with them), which
\* TLC's SYMMETRY cannot permute (it permutes model values only); so the reduction is written
\* as a view instead: states that differ by a permutation of interchangeable ranks get the
\* same view, and TLC explores one state per orbit.
\* Interchangeable: any permutation of the CP indices together with any permutation of the TP
\* indices maps every process group (attn_cp, attn_tp, tp, the sync domain, a rank's own
\* handle) onto a group of the same kind; stages and replicas stay where they are. Sound only
\* where nothing singles out a rank: equal pools (MCEqualPools) and no uneven_capacity.
\* Every invariant quantifies over all ranks alike, so it holds in a state iff it holds in all
\* its images, and the reduced search visits an image of every reachable state.
Bijections(S) == {f \in [S -> S] : \A x, y \in S : x # y => f[x] # f[y]}
RankPerms == {[r \in Ranks |-> RankAt(StageOf(r), DpOf(r), pc[CpOf(r)], pt[TpOf(r)])] :
                pc \in Bijections(0 .. CP - 1), pt \in Bijections(0 .. TP - 1)}
\* A call without its member set: a rank posts only on its own groups, so (rank, kind,
\* channel) determine the members, and the view of a rank names no other rank.
CallView(c) == IF c = C!NoCall THEN c ELSE [c EXCEPT !.grp = [kind |-> c.grp.kind, ch |-> c.grp.ch]]
RankView(r) == <<reqIdx[r], waiting[r], backlog[r], cursor[r], running[r], tree[r], nextId[r], devFree[r], hostFree[r],
                 wq[r], wDone[r], lq[r], lDone[r], sbq[r], baq[r], rvq[r], rlq[r], pf[r],
                 popped[r], ares[r], lenv[r], [th \in Threads |-> CallView(coll[r][th])]>>
\* RankView lists EVERY variable of HiCacheSync.tla (all are rank-indexed): a variable left out
\* would merge states that differ in it, which is unsound, not a reduction. Add new ones here.
\* The orbit of the state as a set of rank-indexed views: the same set for a state and for
\* every image of it under RankPerms (a group), different sets for states in different orbits.
\* Exact, but it builds |RankPerms| images of every generated state (48 at CP 4 x TP 2) and TLC
\* sorts and fingerprints them all; kept as the reference the view below is tested against.
OrbitView ==
    LET v == [r \in Ranks |-> RankView(r)]
    IN  {[r \in Ranks |-> v[p[r]]] : p \in RankPerms}

\* The same partition of the states, one orbit per view, built from far fewer values.
\* A row is the rank views of one CP index c, in a fixed order of the other coordinates
\* (stage, replica, TP index), with the TP indices renamed by a TP permutation pt:
\*   Row(c, pt) = << v[RankAt(st, d, c, pt[t])] : (st, d, t) in RowOrder >>.
\* The view is the set, over the TP permutations pt, of the multiset (bag) of the CP rows.
\*  - The same for a state and its image under g = (pc, qt) in RankPerms: the image's row c
\*    under pt is the state's row pc[c] under qt o pt; a bag forgets the order of the rows, so
\*    Bag(image, pt) = Bag(state, qt o pt), and qt o pt ranges over all TP permutations as pt
\*    does.
\*  - Equal views are images: if Bag(u, id) = Bag(s, pt) for some pt, the rows of u are those of
\*    s under pt, matched one to one by some bijection pc of the CP indices, so u's rank views
\*    are s's under (pc, pt), an element of RankPerms; and RankView covers every variable.
\* So TLC keeps one state per orbit, as with OrbitView (same distinct states; the first state
\* of an orbit it meets is the same one), from |TP|! bags of CP rows instead of CP! x TP! images
\* of every rank: 2 bags of at most 4 rows of 2 views at CP 4 x TP 2, against 48 images of 8.
\* A bag, not a set: equal rows are common (ranks in lockstep hold equal views), and a set
\* would merge states whose rows differ only in how often each occurs.
RowOrder == [j \in 1 .. PP * DP * TP |->
                LET i == j - 1 IN <<i \div (DP * TP), (i \div TP) % DP, i % TP>>]
TpPerms == Bijections(0 .. TP - 1)
\* RowRanks[pt][c]: the ranks of row c under pt, in RowOrder (a constant table).
RowRanks == [pt \in TpPerms |-> [c \in 0 .. CP - 1 |->
                [j \in DOMAIN RowOrder |-> RankAt(RowOrder[j][1], RowOrder[j][2], c, pt[RowOrder[j][3]])]]]
\* The multiset of the rows as a function from each distinct row to how often it occurs.
RowBag(rows) == [x \in {rows[c] : c \in DOMAIN rows} |-> Cardinality({c \in DOMAIN rows : rows[c] = x})]
\* v is made a value once (TLCEval): TLC keeps a function constructor unevaluated and evaluates
\* its body again at every application, and a successor's variables are such constructors
\* (HiCacheSync's WriteBack) until something fingerprints them, which under a VIEW only the
\* view does; each v[r] below would rebuild rank r's view from them (docs/tlc-speed.md, 1 Dec).
RankSymmetryView ==
    LET v == TLCEval([r \in Ranks |-> RankView(r)])
    IN  {RowBag([c \in 0 .. CP - 1 |-> [j \in DOMAIN RowOrder |-> v[RowRanks[pt][c][j]]]]) : pt \in TpPerms}


\* ---------------------------------------------------------------------------
\* ReducedSpec: a partial-order reduction for SAFETY checking (issue 13; docs/sync-reduction.md).
\* A cfg selects it with `SPECIFICATION ReducedSpec` (no fairness: never with PROPERTIES, and the
\* runner refuses the pair); Spec stays the default and every other cfg keeps its state count.
\* In a state where some scheduler group is eager (HiCacheSync's EagerGroups: ready, and it commutes
\* with every other step), ReducedNext explores only one successor: every eager group completes
\* (a round: their members are disjoint), then the next round, until no group is eager. The states
\* between rounds are not stored, so their invariants are checked here (ReducedInvariants, on the
\* state as values through the instance Mid): where one fails, the fused step stops in that state,
\* and TLC reports it. Where no group is eager, ReducedNext is Next.
\* The invariants a reduced cfg may list are those ReducedInvariants checks (SyncReductionTest).

\* The state whose per-rank local states (LS records, with lenv's dead flag) are ls and whose calls
\* are cl, as an instance of the spec: its invariants and guards, exactly as written there.
Mid(ls, cl) == INSTANCE HiCacheSync WITH
    reqIdx <- [q \in Ranks |-> ls[q].req], waiting <- [q \in Ranks |-> ls[q].wait],
    backlog <- [q \in Ranks |-> ls[q].blog], cursor <- [q \in Ranks |-> ls[q].cur],
    running <- [q \in Ranks |-> ls[q].run], tree <- [q \in Ranks |-> ls[q].tree],
    nextId <- [q \in Ranks |-> ls[q].nid], devFree <- [q \in Ranks |-> ls[q].dfree],
    hostFree <- [q \in Ranks |-> ls[q].hfree], wq <- [q \in Ranks |-> ls[q].wq],
    wDone <- [q \in Ranks |-> ls[q].wd], lq <- [q \in Ranks |-> ls[q].lq],
    lDone <- [q \in Ranks |-> ls[q].ld], sbq <- [q \in Ranks |-> ls[q].sbq],
    baq <- [q \in Ranks |-> ls[q].baq], rvq <- [q \in Ranks |-> ls[q].rvq],
    rlq <- [q \in Ranks |-> ls[q].rlq], pf <- [q \in Ranks |-> ls[q].pf],
    popped <- [q \in Ranks |-> ls[q].pop], ares <- [q \in Ranks |-> ls[q].ares],
    lenv <- [q \in Ranks |-> [bf |-> ls[q].bf, clk |-> ls[q].clk, dead |-> ls[q].dead,
                              ab |-> ls[q].ab, ord |-> ls[q].ord]],
    coll <- cl

\* More invariants to check between rounds: a cfg that lists others overrides this definition
\* (`ReducedAlsoChecks <- ReducedDebugChecks` in its CONSTANTS); SyncReductionTest requires it.
ReducedAlsoChecks(ls, cl) == TRUE
ReducedDebugChecks(ls, cl) ==
    /\ Mid(ls, cl)!DebugPrefetchRevoked /\ Mid(ls, cl)!DebugLoadBack /\ Mid(ls, cl)!DebugAbortWhileReading
    /\ Mid(ls, cl)!DebugTwoWaiting /\ Mid(ls, cl)!DebugPrefetchInserted

ReducedInvariants(ls, cl) ==
    /\ Mid(ls, cl)!TypeOK /\ Mid(ls, cl)!CollectiveMatching /\ Mid(ls, cl)!TreeAgreement
    /\ Mid(ls, cl)!AckAgreement /\ Mid(ls, cl)!PrefetchAgreement /\ Mid(ls, cl)!AllocAgreement
    /\ Mid(ls, cl)!HostSlotSafety /\ Mid(ls, cl)!SidecarCoverage
    /\ ReducedAlsoChecks(ls, cl)

\* One round: every group in G completes, each member resumed once (HiCacheSync's
\* CollectiveCompletes on values; TLCEval makes each function a value once, see RankSymmetryView).
Round(ls, cl, G) ==
    LET M  == UNION {g.m : g \in G}
        xs == TLCEval([g \in G |-> Mid(ls, cl)!C!Result(g)])
        nx == TLCEval([q \in M |-> Resume(q, ls[q], cl[q]["sched"], xs[cl[q]["sched"].grp])])
    IN  <<TLCEval([q \in Ranks |-> IF q \in M THEN nx[q].s @@ [dead |-> ls[q].dead] ELSE ls[q]]),
          TLCEval([q \in Ranks |->
                     IF q \in M THEN [cl[q] EXCEPT !["sched"] = nx[q].call, !["async"] = nx[q].s.acall]
                     ELSE cl[q]])>>

\* Rounds until none is eager, or an intermediate state fails an invariant (kept, for TLC to
\* report), or MaxRounds (then a state with eager groups is stored and the next step goes on: sound
\* either way). A recursive function, not a RECURSIVE operator: SANY refuses state-level arguments
\* to one whose body uses the instance. A step of merged_cp4tp2_req2 needs at most 6 rounds.
MaxRounds == 12
Rounds(ls0, cl0) ==
    LET it[n \in 0 .. MaxRounds] ==
            IF n = 0 THEN <<ls0, cl0>>
            ELSE LET p == it[n - 1]
                     G == Mid(p[1], p[2])!EagerGroups
                 IN  IF G = {} \/ (n > 1 /\ ~ReducedInvariants(p[1], p[2])) THEN p
                     ELSE Round(p[1], p[2], G)
    IN  it[MaxRounds]

FusedEager ==
    \E fin \in {Rounds(TLCEval([q \in Ranks |-> LS(q) @@ [dead |-> lenv[q].dead]]), coll)} :
        LET ls == fin[1] IN
        /\ reqIdx' = [q \in Ranks |-> ls[q].req] /\ waiting' = [q \in Ranks |-> ls[q].wait]
        /\ backlog' = [q \in Ranks |-> ls[q].blog] /\ cursor' = [q \in Ranks |-> ls[q].cur]
        /\ running' = [q \in Ranks |-> ls[q].run] /\ tree' = [q \in Ranks |-> ls[q].tree]
        /\ nextId' = [q \in Ranks |-> ls[q].nid] /\ devFree' = [q \in Ranks |-> ls[q].dfree]
        /\ hostFree' = [q \in Ranks |-> ls[q].hfree] /\ wq' = [q \in Ranks |-> ls[q].wq]
        /\ wDone' = [q \in Ranks |-> ls[q].wd] /\ lq' = [q \in Ranks |-> ls[q].lq]
        /\ lDone' = [q \in Ranks |-> ls[q].ld] /\ sbq' = [q \in Ranks |-> ls[q].sbq]
        /\ baq' = [q \in Ranks |-> ls[q].baq] /\ rvq' = [q \in Ranks |-> ls[q].rvq]
        /\ rlq' = [q \in Ranks |-> ls[q].rlq] /\ pf' = [q \in Ranks |-> ls[q].pf]
        /\ popped' = [q \in Ranks |-> ls[q].pop] /\ ares' = [q \in Ranks |-> ls[q].ares]
        /\ lenv' = [q \in Ranks |-> [lenv[q] EXCEPT !.bf = ls[q].bf, !.clk = ls[q].clk, !.ab = ls[q].ab]]
        /\ coll' = fin[2]

ReducedNext == IF EagerGroups # {} THEN FusedEager ELSE Next
ReducedSpec == Init /\ [][ReducedNext]_vars

=============================================================================
