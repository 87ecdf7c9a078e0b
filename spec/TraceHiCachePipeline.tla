------------------------ MODULE TraceHiCachePipeline ------------------------
(***************************************************************************)
(* Trace validation with PP > 1: is a recorded spec-shaped run of the      *)
(* implementation (`simulate --trace --pp P`) a behaviour of               *)
(* HiCachePipeline with PPSync = "forward" (#27285, batched #33473)?       *)
(* The approach is TraceHiCacheSync's (read that module first): the run is *)
(* the generated module TraceLog, each logged collective is one spec step, *)
(* what is not logged is chosen by TLC and pruned by what is logged next.  *)
(*                                                                          *)
(* What differs from one sync domain (HiCacheSync) and how it is mapped:   *)
(*  - RECV. The simulator's RECV is one MAX over the whole sync domain,    *)
(*    every stage posting [next request index]; HiCachePipeline's stage 0  *)
(*    alone posts <<next, not quiet>> on its CP x TP grid, and a later     *)
(*    stage starts step k when stage 0's message of step k arrives. A      *)
(*    logged RECV of step k is therefore: stage 0's RECV completing (or,   *)
(*    on a one-rank grid where the spec posts nothing, stage 0's whole     *)
(*    atomic step starting), while every later-stage member has finished   *)
(*    step k - 1 (it is at "begin" with an empty channel: the simulator's  *)
(*    stage cannot call RECV k earlier). Every member's logged value is    *)
(*    RecvNext of its own state (a later stage keeps req and wait too),    *)
(*    the logged result is the MAX over the stage-0 members, and every     *)
(*    member's snapshot is its state while it waits. The run runs stages   *)
(*    closer to lockstep than the spec requires: a subset of behaviours.   *)
(*  - Later stages. They copy stage 0's decisions from the pipeline (no    *)
(*    collective): their scheduler moves (StepBegins, EventsReady) are     *)
(*    unlogged steps here, forced by the messages, and observed through    *)
(*    the snapshots at the next RECV. The lines on which a later stage     *)
(*    logs a decision it received (group kind "pipe") are not steps here:  *)
(*    the harness checks them by TraceHiCacheRun's R8 and R5 (the decision *)
(*    the stage before made, popped exactly) and turns one that breaks     *)
(*    them into an event no step matches (ForwardedDecisionMismatch).      *)
(*  - Stage 0's sync points (S1, S2, S123 on attn_cp / attn_tp, the grid   *)
(*    split by the converter as for one domain) are HiCachePipeline's,     *)
(*    with its payloads: S123 is <<w, l, rl>> there (no revoke or backup   *)
(*    queue: storage backups are not modelled and revokes are folded into  *)
(*    releases), the simulator's <<w, l, rv, ba, rl>>, so rv and ba must   *)
(*    be 0, which they are with storage off.                               *)
(*                                                                          *)
(* Covered: post20460 and merged, storage off, any DP x CP x TP x PP.      *)
(* Refused before TLC runs (validate-trace, exit 2): pre20460 (no forward  *)
(* sync: HiCachePipeline has no such version) and storage on (the revoke   *)
(* queue folded into releases, S7 over the pp group untraced).             *)
(***************************************************************************)
EXTENDS HiCachePipeline, TraceLog, TLC

\* l: index of the next event of Trace to match (Len(Trace) + 1 once all are matched).
VARIABLE l

\* Pool sizes of a traced run: the header's DeviceCap and HostCap on every rank.
TraceEqualPools == [r \in Ranks |-> [dev |-> DeviceCap, host |-> HostCap]]
traceVars == <<vars, l>>

-----------------------------------------------------------------------------
(* Reading one event.                                                       *)

Members(e) == {e.m[i] : i \in DOMAIN e.m}
Stage0(e) == {q \in Members(e) : StageOf(q) = 0}
TraceGroup(e) == C!Group(e.grp, e.ch, Members(e))

\* The simulator's payload of a sync point as HiCachePipeline posts it, and the part the spec has no
\* queue for (must be all 0).
SpecVal(site, v) == IF site = "S123" THEN <<v[1], v[2], v[5]>> ELSE v
Unmodelled(site, v) == IF site = "S123" THEN <<v[3], v[4]>> ELSE <<>>
NoUnmodelled(site, v) == \A j \in DOMAIN Unmodelled(site, v) : Unmodelled(site, v)[j] = 0

\* Member e.m[i] has posted exactly the call the event says it made.
PostedAsLogged(e, i) ==
    LET c == coll[e.m[i]][e.ch]
    IN  /\ c # C!NoCall
        /\ c.grp = TraceGroup(e)
        /\ c.site = e.site
        /\ c.stage = e.stage
        /\ c.op = e.op
        /\ NoUnmodelled(e.site, e.val[i])
        /\ c.val = SpecVal(e.site, e.val[i])

\* Acks rank q popped in this step, as the simulator logs them for the site: S123 <<w, l, rv, ba, rl>>.
\* (wd and ld fall only by pops; storage off, the release queue only shrinks within a step.)
PopDiff(q, site) ==
    LET w  == ls[q].wd - ls'[q].wd
        ld == ls[q].ld - ls'[q].ld
        rl == Len(ls[q].rlq) - Len(ls'[q].rlq)
    IN  CASE site = "S1"   -> <<w>>
          [] site = "S2"   -> <<ld>>
          [] site = "S123" -> <<w, ld, 0, 0, rl>>
          [] OTHER         -> <<>>

PopAsLogged(e, i) == e.pop[i] = <<>> \/ e.pop[i] = PopDiff(e.m[i], e.site)

\* A logged snapshot (obs = FALSE: not logged) is the member's state while it waits on RECV.
\* (No revoke queue here: nrv must be 0.)
SnapAsLogged(e, i) ==
    LET s == e.snap[i]
        q == e.m[i]
    IN  ~s.obs \/ /\ ls[q].dfree = s.dfree
                  /\ ls[q].hfree = s.hfree
                  /\ Len(ls[q].wq) = s.nwq
                  /\ Len(ls[q].lq) = s.nlq
                  /\ s.nrv = 0
                  /\ Len(ls[q].rlq) = s.nrl
                  /\ ls[q].wait = s.wait
                  /\ ls[q].run = s.run

-----------------------------------------------------------------------------
(* One predicate per kind of logged event.                                  *)

\* RECV of one step (see the header): stage 0's RECV, every later stage done with the step before.
IsRecv ==
    /\ l <= Len(Trace)
    /\ LET e  == Trace[l]
           S0 == Stage0(e)
           r0 == C!SetMin(S0)
       IN  /\ e.ev = "CollectiveCompletes"
           /\ e.site = "RECV"
           /\ S0 = StageDomain(r0)
           /\ \A i \in DOMAIN e.m :
                 LET q == e.m[i]
                 IN  /\ Len(e.val[i]) = 1 /\ Len(e.res[i]) = 1
                     /\ e.val[i][1] = RecvNext(ls[q])
                     /\ e.res[i][1] = Max({RecvNext(ls[p]) : p \in S0})
                     /\ SnapAsLogged(e, i)
                     /\ StageOf(q) > 0 => /\ ls[q].pc = "begin"
                                         /\ chan[q] = <<>>
                                         /\ coll[q]["sched"] = C!NoCall
           /\ IF Cardinality(S0) > 1
                THEN CollectiveCompletes(C!Group("tp", "sched", S0))
                ELSE StepBegins(r0)
    /\ l' = l + 1

\* A collective of stage 0's sync points: as TraceHiCacheSync's, with HiCachePipeline's payloads.
IsCollectiveCompletes ==
    /\ l <= Len(Trace)
    /\ LET e == Trace[l]
           g == TraceGroup(e)
       IN  /\ e.ev = "CollectiveCompletes"
           /\ e.site # "RECV"
           /\ \A i \in DOMAIN e.m : PostedAsLogged(e, i)
           /\ \A i \in DOMAIN e.m : NoUnmodelled(e.site, e.res[i])
           /\ \A i \in DOMAIN e.m : SpecVal(e.site, e.res[i]) = C!Result(g)
           /\ CollectiveCompletes(g)
           /\ \A i \in DOMAIN e.m : PopAsLogged(e, i)
    /\ l' = l + 1

\* A later stage has a scheduler move to make: a message to start a step with, or its own events to
\* wait for (it blocks on them: #27285).
FollowerCanMove(r) ==
    /\ StageOf(r) > 0
    /\ \/ ls[r].pc = "begin" /\ chan[r] # <<>> /\ coll[r]["sched"] = C!NoCall /\ Room(r)
       \/ ls[r].pc = "wait_ev"
FollowersBusy == \E r \in Ranks : FollowerCanMove(r)

\* A stage-0 rank on a grid of several ranks posts RECV (the collective is what is logged) as soon as it
\* can: posting reads neither its events nor another rank's state, so it commutes with every other move.
PosterCanMove(r) ==
    /\ StageOf(r) = 0 /\ Cardinality(StageDomain(r)) > 1
    /\ ls[r].pc = "begin" /\ coll[r]["sched"] = C!NoCall /\ Room(r)

\* Followers first, then RECV posters, then anything else.
Busy == FollowersBusy \/ \E r \in Ranks : PosterCanMove(r)

\* A later stage's moves, followers first. Its scheduler copies its upstream messages and touches no
\* other rank's state but its own channels, so its moves commute with every other rank's: taking them
\* as soon as they are enabled, in any order, reaches the states of every other order (TLC otherwise
\* interleaves each follower's steps with every other rank's, and 8 ranks did not finish in 500 s).
\* Its GPU events complete only while it waits for them (pc "wait_ev"): nothing observes them
\* earlier (not the snapshot, not the log), and a follower that never needs them never waits.
\* These are restrictions of the spec's behaviours, so they can only reject more, never accept more.
FollowerStep ==
    \E r \in Ranks :
        /\ FollowerCanMove(r)
        /\ \/ StepBegins(r)
           \/ EventsReady(r)
           \/ ls[r].pc = "wait_ev" /\ (WriteEventCompletes(r) \/ LoadEventCompletes(r))

\* Index of the next event, at or after l, in which rank q posts its own value at one of sites (the
\* first group of the sync point: stage 1) and has not posted it yet; 0 if none.
NextOwnPost(q, sites) ==
    LET js == {k \in l .. Len(Trace) : /\ Trace[k].ev = "CollectiveCompletes"
                                       /\ Trace[k].ch = "sched" /\ Trace[k].stage = 1
                                       /\ Trace[k].site \in sites
                                       /\ \E i \in DOMAIN Trace[k].m : Trace[k].m[i] = q}
        posted == /\ coll[q]["sched"] # C!NoCall
                  /\ coll[q]["sched"].site \in sites /\ coll[q]["sched"].stage = 1
        first == IF js = {} THEN 0 ELSE C!SetMin(js)
        rest == js \ {first}
    IN  IF ~posted THEN first ELSE IF rest = {} THEN 0 ELSE C!SetMin(rest)

\* The value of component c that rank q logged at event k.
OwnVal(q, k, c) == LET i == CHOOSE x \in DOMAIN Trace[k].m : Trace[k].m[x] = q IN Trace[k].val[i][c]

\* A stage-0 GPU event completes only while its rank waits in a collective (or, on a one-rank grid,
\* before its atomic step), and only up to the count the rank logs at its next own post of that count
\* (S1 / S123 for writes, S2 / S123 for loads): a completion the next post does not count happens after
\* that post, as it may, since the count is read only when posting. Restrictions again (see above).
Stage0EventCompletes(r) ==
    /\ StageOf(r) = 0
    /\ \/ coll[r]["sched"] # C!NoCall
       \/ Cardinality(StageDomain(r)) = 1 /\ ls[r].pc = "begin"
    \* IF, not "k = 0 \/ ...": TLC explores every disjunct of an action, so Trace[0] would be read
    /\ \/ /\ LET k == NextOwnPost(r, {"S1", "S123"}) IN IF k = 0 THEN TRUE ELSE ls[r].wd < OwnVal(r, k, 1)
          /\ WriteEventCompletes(r)
       \/ /\ LET k == NextOwnPost(r, {"S2", "S123"})
             IN  IF k = 0 THEN TRUE ELSE ls[r].ld < OwnVal(r, k, IF Trace[k].site = "S2" THEN 1 ELSE 2)
          /\ LoadEventCompletes(r)

\* Steps that are not logged: the followers' and the RECV posters' (above, before anything else),
\* stage 0's GPU events. The next logged values and snapshots prune the wrong choices.
UnloggedStep ==
    /\ \/ FollowerStep
       \/ ~FollowersBusy /\ \E r \in Ranks : PosterCanMove(r) /\ StepBegins(r)
       \/ ~Busy /\ \E r \in Ranks : Stage0EventCompletes(r)
    /\ UNCHANGED l

TraceInit ==
    /\ Init
    /\ l = 1
    /\ TLCSet(1, 0)         \* largest l reached so far (see TraceProgress)
    /\ TLCSet(2, 0)         \* states printed at that l

TraceNext ==
    \/ ~Busy /\ (IsRecv \/ IsCollectiveCompletes)
    \/ UnloggedStep

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

-----------------------------------------------------------------------------
(* Verdict and report (as TraceHiCacheSync).                                *)

\* Violated (TLC exit 12) exactly when some behaviour of the spec matches every event: accepted.
TraceNotFullyMatched == l <= Len(Trace)

\* What each rank has posted (site, stage, group, value) or "none": what the spec allowed next.
Posted == [r \in Ranks |-> [th \in Threads |->
              IF coll[r][th] = C!NoCall THEN "none"
              ELSE <<coll[r][th].site, coll[r][th].stage, coll[r][th].grp.kind, coll[r][th].val>>]]

\* A CONSTRAINT that never cuts: prints the first few states at each new largest l.
TraceProgress ==
    IF l > TLCGet(1)
      THEN TLCSet(1, l) /\ TLCSet(2, 1) /\ PrintT(<<"TRACE-AT", l, Posted>>)
      ELSE IF l = TLCGet(1) /\ TLCGet(2) < 6
        THEN TLCSet(2, TLCGet(2) + 1) /\ PrintT(<<"TRACE-AT", l, Posted>>)
        ELSE TRUE

=============================================================================
Measured runs (validate-trace on spec-shaped `simulate --trace --pp P` runs, 30 Nov 2026, load 23-30 on
2 shared cores): docs/explanation/trace-validation.md, "PP > 1". merged (1,2,2,2) seed 5, 85 events: 29,813 distinct states
(227.8 s) before the search restrictions above (followers first, RECV posters next, stage-0 GPU events
bounded by the next own post), 2,099 (47.2 s) after.
