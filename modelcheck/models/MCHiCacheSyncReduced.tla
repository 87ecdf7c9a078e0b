---- MODULE MCHiCacheSyncReduced ----
\* ReducedSpec: MCHiCacheSync with a partial-order reduction for SAFETY checking
\* (docs/explanation/spec-design.md). A cfg selects it with this module and `SPECIFICATION ReducedSpec` (no
\* fairness: never with PROPERTIES, and the runner refuses the pair); Spec is MCHiCacheSync's, and
\* every other cfg keeps its state count. In a state where some scheduler group is eager
\* (HiCacheSync's EagerGroups: ready, and it commutes with every other step), ReducedNext explores
\* only one successor: every eager group completes (a round: their members are disjoint), then the
\* next round, until no group is eager. Where no group is eager, ReducedNext is Next, except that a
\* step's RECV is followed at once by the rounds it makes eager (RecvThenRounds): the state right
\* after it, where groups are eager, would have had that one successor only. The states between
\* rounds, and right after RECV, are not stored, so their invariants are checked here
\* (ReducedInvariants, on the state as values through the instance Mid): where one fails, the
\* fused step stops in that state, and TLC reports it. The invariants a reduced cfg may list are
\* those ReducedInvariants checks (SyncReductionTest).
\*
\* Why a module of its own: the instance of HiCacheSync with parameters below (Mid) made TLC 2.18
\* spend about twice as long on every state of every model of the module that held it, Spec
\* included, though Spec never uses it (post20460_cp2tp2_live: 14.8 s with it, 7.6 s without, C1,
\* 1 Dec 2026; docs/explanation/spec-design.md). Only models that use ReducedSpec pay for it here.
EXTENDS MCHiCacheSync

\* The state whose per-rank local states (LS records, with lenv's dead flag) are ls and whose calls
\* are cl, as an instance of the spec: its invariants and guards, exactly as written there
\* (HiCacheSyncChecks is HiCacheSync with the checks below conjoined: one instance per check).
Mid(ls, cl) == INSTANCE HiCacheSyncChecks WITH
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
ReducedDebugChecks(ls, cl) == Mid(ls, cl)!DebugChecks

ReducedInvariants(ls, cl) == Mid(ls, cl)!ReducedChecks /\ ReducedAlsoChecks(ls, cl)

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

\* The state whose local states and calls are fin[1] and fin[2], as the next state.
StoreAt(fin) ==
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

\* The current state's local states, each with its lenv dead flag, as values.
LocalStates == TLCEval([q \in Ranks |-> LS(q) @@ [dead |-> lenv[q].dead]])

FusedEager == \E fin \in {Rounds(LocalStates, coll)} : StoreAt(fin)

\* A step's RECV (the domain group: never eager, its completion closes the environment window)
\* and then the rounds it makes eager, in one step: the state right after RECV, which ReducedNext
\* would store only to take FusedEager from it next, is checked here (ReducedInvariants) and not
\* stored unless it fails or has no eager group (Rounds then returns it as it is). The completion
\* is CollectiveCompletes's on values (Round of the one group; RECV is on the scheduler channel).
RecvThenRounds ==
    \E r \in Ranks :
        /\ SchedCompletesAt(r, "RECV")
        /\ CompletionReady(coll[r]["sched"].grp)
        /\ \E fin \in {LET p == Round(LocalStates, coll, {coll[r]["sched"].grp})
                       IN  IF ReducedInvariants(p[1], p[2]) THEN Rounds(p[1], p[2]) ELSE p} :
              StoreAt(fin)

\* Next where no group is eager, with RECV taken by RecvThenRounds: HiCacheSync's Next with
\* SomeCollectiveCompletes written out, SchedRecvRequests replaced (SyncReductionTest checks that
\* the other completions below are SomeCollectiveCompletes's).
NextFusingRecv ==
    \/ RecvThenRounds
    \/ SchedWritingCheck
    \/ SchedLoadingCheck
    \/ SchedDrainStorageControlQueues
    \/ SchedCheckHicacheEvents
    \/ SchedCanTerminatePrefetch
    \/ SchedCheckPrefetchProgress
    \/ SchedReleaseAbortedRequest
    \/ PfPrefetchThreadStep
    \/ AsyncCheckHicacheEvents
    \/ Background
    \/ Terminated

ReducedNext == IF EagerGroups # {} THEN FusedEager ELSE NextFusingRecv
ReducedSpec == Init /\ [][ReducedNext]_vars

=============================================================================
