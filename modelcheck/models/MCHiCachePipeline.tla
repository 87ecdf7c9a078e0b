-------------------------- MODULE MCHiCachePipeline --------------------------
(***************************************************************************)
(* Bounds for model checking HiCachePipeline. Only bounds live here; the   *)
(* cfg files pick a topology, the PP sync mode, a version and the bugs.    *)
(***************************************************************************)
EXTENDS HiCachePipeline

\* B6's scenario: key 1 is inserted and written through at step 1, its write ack may be
\* ready on one stage and not on the other at step 2, where key 2 needs key 1's device page.
MCRequests2 == <<1, 2>>
\* Then key 1 again: a host hit, i.e. a load-back (load acks in the batched counts of B19).
MCRequests3 == <<1, 2, 1>>
\* Three keys through a one-page device pool and a two-page host pool: the third write-through
\* evicts one of two host-only keys, so the LRU order decides the tree (local_clock,
\* uneven_capacity).
MCRequests123 == <<1, 2, 3>>
\* One request that misses: a storage prefetch (B7).
MCRequests1 == <<1>>

\* One page per key keeps the ack scenarios small; two pages in two batches of one page
\* give a prefetch a partial result (one batch read, the other not) and an in-flight batch.
MCPages1 == 1
MCPages2 == 2
MCBatch1 == 1
\* Device holds one key: the second key forces an eviction.
MCDeviceCap1 == 1
\* Host holds two keys' pages (pipeline models) or one two-page key (storage models).
MCHostCap2 == 2
MCThreshold1 == 1
\* A stage runs at most one step ahead of the next (one message in flight per channel);
\* two lets stage 0 run a further step ahead.
MCLag1 == 1
MCLag2 == 2
\* Steps compared: the request stream plus idle steps in which late acks are popped.
MCSteps2 == 2
MCSteps3 == 3
MCSteps4 == 4
\* Room for a load-back at step 3 or 4 and the pops of its ack (host-only rows), and for three
\* keys' write-throughs and a host eviction (local_clock, uneven_capacity).
MCSteps5 == 5
MCSteps6 == 6

\* Ad-hoc models (adhoc-pipeline.cfg.template, which names the requests and the pages per key):
\* with storage the bounds of b7_fixed (device and host hold one key), without storage those of
\* b6_fixed (the smallest fixed models in which the PP sync matters).
MCAdhocDeviceCap == IF StorageOn THEN PagesPerKey ELSE MCDeviceCap1
MCAdhocHostCap == IF StorageOn THEN PagesPerKey ELSE MCHostCap2
MCAdhocSteps == IF StorageOn THEN MCSteps2 ELSE MCSteps3

\* Pool sizes per rank and stage (PoolSizes). Equal pools: every rank has DeviceCap and HostCap.
MCEqualPools == [r \in Ranks |-> [dev |-> DeviceCap, host |-> HostCap]]
\* Stage 1 configured with a device pool of two keys, stage 0 with one (B6's scenario: with its
\* own pool stage 1 need not evict key 1 for key 2).
MCUnequalStagePools ==
    [r \in Ranks |-> [dev |-> IF StageOf(r) = 0 THEN MCDeviceCap1 ELSE 2 * MCDeviceCap1, host |-> HostCap]]


\* Rank symmetry, for SAFETY models only, as RankSymmetryView of MCHiCacheSync.tla
\* (the cfg says `VIEW RankSymmetryView`; the runner refuses a VIEW with temporal properties).
\* Interchangeable: one permutation of the CP indices and one of the TP indices, applied alike
\* on every stage. It maps every group (attn_cp, attn_tp, tp, world, the pp group of a (cp, tp)
\* position) onto a group of the same kind, and commutes with NextRank/PrevRank (the same
\* position on the next stage), so chan[r] stays the channel from r's predecessor. Stages stay
\* where they are (a stage is not interchangeable: stage 0 decides, the others follow). A rank's
\* local state ls[r] names no rank (its log records what the rank saw, not who it is). Sound
\* only where nothing singles out a rank within a stage: equal pools, no local_pool_sizes.
Bijections(S) == {f \in [S -> S] : \A x, y \in S : x # y => f[x] # f[y]}
RankPerms == {[r \in Ranks |-> RankAt(StageOf(r), DpOf(r), pc[CpOf(r)], pt[TpOf(r)])] :
                pc \in Bijections(0 .. CP - 1), pt \in Bijections(0 .. TP - 1)}
\* A call without its member set: a rank posts only on its own groups (rank, kind and channel
\* determine the members), so the view of a rank names no other rank.
CallView(c) == IF c = C!NoCall THEN c ELSE [c EXCEPT !.grp = [kind |-> c.grp.kind, ch |-> c.grp.ch]]
\* RankView lists EVERY variable of HiCachePipeline.tla (ls, chan, coll; all rank-indexed): a
\* variable left out would merge states that differ in it, which is unsound, not a reduction
\* (SymmetryViewCoversVariablesTest compares it with the module's VARIABLE declarations).
RankView(r) == <<ls[r], chan[r], [th \in Threads |-> CallView(coll[r][th])]>>
\* The orbit of the state as a set of rank-indexed views (one per permutation).
OrbitView ==
    LET v == [r \in Ranks |-> RankView(r)]
    IN  {[r \in Ranks |-> v[p[r]]] : p \in RankPerms}
\* With one replica, no TP and two CP indices, RankPerms is {identity, the swap of the two CP
\* indices on every stage}, and the set of the two columns (a column: the views of the ranks of
\* one CP index, stage by stage) is the orbit in half the work: the swap's image has the same two
\* columns; and two states with the same set are one the other's image ({A, B}: the states
\* (A, B) and (B, A)) or equal ({A}: both (A, A)). (Not for three or more CP indices: {A, A, B}
\* and {A, B, B} give one set; nor with TP or DP > 1: the columns would permute independently.)
ColumnsExact == DP = 1 /\ TP = 1 /\ CP <= 2
Column(c) == [st \in 0 .. PP - 1 |-> RankView(RankAt(st, 0, c, 0))]
RankSymmetryView == IF ColumnsExact THEN {Column(c) : c \in 0 .. CP - 1} ELSE OrbitView

\* The view of ReducedSpec's models (docs/explanation/spec-design.md): RankSymmetryView of the ranks'
\* LIVE state. A prefetch field that no action will read again and no invariant reads is set to
\* a constant, so states that differ only there are one: `to` once the prefetch left "reading"
\* (only CanTerminate reads it, and only then); `fail` once no batch is left to start or skip or
\* the prefetch is terminated (IoStartsBatch needs "reading", IoSkipsBatch holds for "term"
\* either way); `cmp` once terminated (read by S5's post and Terminate, both before "term");
\* the batch acks already synced (the S5B post reads acks[sy + 1], the rest only their number).
LiveOp(op) ==
    [op EXCEPT !.to   = @ /\ op.st = "reading",
               !.fail = @ /\ op.st = "reading" /\ Len(op.acks) < NB(op.tgt),
               !.cmp  = IF op.st = "term" THEN 0 ELSE @,
               !.acks = [j \in 1 .. Len(@) |-> IF j <= op.sy THEN 0 ELSE @[j]]]
LiveRankView(r) ==
    <<[ls[r] EXCEPT !.pf = [i \in 1 .. NR |-> LiveOp(@[i])]], chan[r],
      [th \in Threads |-> CallView(coll[r][th])]>>
LiveColumn(c) == [st \in 0 .. PP - 1 |-> LiveRankView(RankAt(st, 0, c, 0))]
LiveOrbitView ==
    LET v == [r \in Ranks |-> LiveRankView(r)]
    IN  {[r \in Ranks |-> v[p[r]]] : p \in RankPerms}
LiveSymmetryView == IF ColumnsExact THEN {LiveColumn(c) : c \in 0 .. CP - 1} ELSE LiveOrbitView

=============================================================================
