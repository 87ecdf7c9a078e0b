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

\* Rank symmetry, for SAFETY models only: the cfg says `VIEW RankSymmetryView`, and
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
\* view does; each v[r] below would rebuild rank r's view from them (docs/explanation/spec-design.md, 1 Dec).
RankSymmetryView ==
    LET v == TLCEval([r \in Ranks |-> RankView(r)])
    IN  {RowBag([c \in 0 .. CP - 1 |-> [j \in DOMAIN RowOrder |-> v[RowRanks[pt][c][j]]]]) : pt \in TpPerms}

\* ReducedSpec, the partial-order reduction for safety (docs/explanation/spec-design.md), is in
\* MCHiCacheSyncReduced.tla, a module of its own: its instance of HiCacheSync with parameters (Mid)
\* made every state of every model of this module cost about twice as much to TLC 2.18, even with
\* Spec, where nothing uses it (post20460_cp2tp2_live: 7.6 s without the instance, 14.8 s with it,
\* C1, 1 Dec 2026; docs/explanation/spec-design.md).
=============================================================================
