------------------------- MODULE TraceHiCacheUnified -------------------------
(***************************************************************************)
(* Trace validation of version `unified`: is a recorded run of the Java    *)
(* implementation (`simulate --version unified --trace`) a behaviour of    *)
(* HiCacheUnified? Same method and verdicts as TraceHiCacheSync.tla        *)
(* (Cirstea, Kuppe, Loillier, Merz 2024; TLC-NOTES, "Trace validation      *)
(* within this fork"): TraceNotFullyMatched violated = accepted.           *)
(*                                                                          *)
(* The run is the module TraceLog that `validate-trace` writes (Trace, a   *)
(* sequence of merged events, and TraceRequests, the header's stream).     *)
(*                                                                          *)
(* Events and observation:                                                  *)
(*  - one event per completed collective, matched by its call site to the  *)
(*    spec action that completes it (RECV -> RecvComplete, S123 ->         *)
(*    EventsComplete, S4 -> S4Complete, S7 -> S7Complete, S5 (the          *)
(*    completion sync of #27010) -> SyncComplete, S6 ->                    *)
(*    AbortBarrierComplete, S2 -> LoadCheckComplete);                       *)
(*  - everything else is unlogged (partial observation): the scheduler's   *)
(*    local phases and posts, the storage threads' queries, reads and      *)
(*    queue puts, the environment (clocks). TLC chooses them; a choice     *)
(*    that does not produce the values the ranks logged at their next      *)
(*    collective dies there;                                                *)
(*  - RankFailed and the converter's harness events match no predicate:   *)
(*    validation stops at them.                                             *)
(*                                                                          *)
(* Java field (trace package, NDJSON)  <->  spec                            *)
(*   m (sorted members)                  the group's members: Ranks          *)
(*   site                                which *Complete action; the group  *)
(*                                       (Dom, HG, PFG or SYG) follows      *)
(*   grp, ch, stage                      not compared: the Java S5 runs on  *)
(*                                       the prefetch thread's groups (ch   *)
(*                                       pf), the spec's on SYG (ch sync)  *)
(*   op, val[i]                          coll[m[i]][g.ch].op / .val, as     *)
(*                                       projected by Observed (below)      *)
(*   res[i]                              C!Result(g), projected             *)
(*   RECV res[i]                         0: nothing delivered (reqIdx       *)
(*                                       unchanged); n: request n delivered *)
(*                                       (reqIdx' = n). RECV's op and val   *)
(*                                       are the harness's (Java: MIN of    *)
(*                                       [next index once ready, else 0]);  *)
(*                                       the spec's RECV carries no value   *)
(*   snap[i] (at RECV)                   hfree = hostFree, nrl = q.rel;     *)
(*                                       the rest is the device tier or the *)
(*                                       admission step, which HiCacheUnified *)
(*                                       abstracts (a request is admitted   *)
(*                                       the step after its prefetch stops  *)
(*                                       in the spec, in the same step in   *)
(*                                       Java)                               *)
(*   pop[i]                              not compared: every rank pops the  *)
(*                                       MIN, which res already says        *)
(*   line, r, step                       reporting only                     *)
(*                                                                          *)
(* Observed: S123's payload is [write acks, load acks, <hit, ack-prefetch, *)
(* backup acks, releases>, digest, -digest]; compared are its length (4    *)
(* or 8: enable_storage, F1), the write count and the storage part. The   *)
(* load count is the device tier (Java loads a prefetched node back at     *)
(* admission; HiCacheUnified puts it on the device at once and counts load *)
(* acks only under Knob pd_decode) and the digest pair is the tree hash    *)
(* (a constant pair in the spec): both are the implementation's own        *)
(* checks (its digest conjunct names TreeAgreement).                       *)
(*                                                                          *)
(* Traces are of the protocol as designed: Bugs = {} and Knobs = {} (the   *)
(* cfg); the run's shape (one page per key, keys distinct, write_back with *)
(* pools that never fill) is checked by `simulate` and, from the header,   *)
(* by `validate-trace` (trace.UnifiedTraceFeatures).                        *)
(***************************************************************************)
EXTENDS HiCacheUnified, TraceLog, TLC

\* l: index of the next event of Trace to match (Len(Trace) + 1 once all are matched).
VARIABLE l
traceVars == <<vars, l>>

\* NReq of a traced run: its request stream's length (keys 1..N, distinct).
TraceNReq == Len(TraceRequests)

-----------------------------------------------------------------------------
(* Reading one event.                                                       *)

\* The spec's group of a call site.
SiteGroup(site) == CASE site = "RECV" -> Dom
                     [] site = "S7"   -> PFG
                     [] site = "S5"   -> SYG
                     [] OTHER         -> HG

\* What the trace and the spec are compared on (see the header): S123 without its load count
\* and digest pair; every other site whole.
Observed(site, v) ==
    IF site = "S123" /\ Len(v) >= 4 THEN <<v[1]>> \o SubSeq(v, 3, Len(v) - 2) ELSE v

\* The event's members are the sync domain (one domain: DP = 1).
MembersAsLogged(e) == {e.m[i] : i \in DOMAIN e.m} = Ranks

\* Member e.m[i] has posted the call the event says it made (RECV: its site only).
PostedAsLogged(e, i) ==
    LET c == coll[e.m[i]][SiteGroup(e.site).ch]
    IN  /\ c # C!NoCall
        /\ c.site = e.site
        /\ e.site = "RECV" \/ /\ c.op = e.op
                              /\ Len(c.val) = Len(e.val[i])
                              /\ Observed(e.site, c.val) = Observed(e.site, e.val[i])

\* What member e.m[i] received is the collective's result (RECV: checked by RecvAsLogged).
ResultAsLogged(e, i) ==
    e.site = "RECV" \/ Observed(e.site, e.res[i]) = Observed(e.site, C!Result(SiteGroup(e.site)))

\* A logged RECV snapshot (obs = FALSE: not logged) shows the member's free host pages and
\* queued host releases.
SnapAsLogged(e, i) ==
    LET s  == e.snap[i]
        rk == e.m[i]
    IN  ~s.obs \/ (hostFree[rk] = s.hfree /\ q[rk].rel = s.nrl)

\* RECV delivered what each member logged: 0 nothing, else that request index.
RecvAsLogged(e) ==
    \A i \in DOMAIN e.m :
        reqIdx'[e.m[i]] = IF e.res[i][1] = 0 THEN reqIdx[e.m[i]] ELSE e.res[i][1]

\* Index of the first event at or after j in which rank rk takes part on channel ch, or 0.
NextOn(rk, ch, j) ==
    LET ks == {k \in j .. Len(Trace) : /\ Trace[k].ev = "CollectiveCompletes"
                                       /\ SiteGroup(Trace[k].site).ch = ch
                                       /\ \E i \in DOMAIN Trace[k].m : Trace[k].m[i] = rk}
    IN  IF ks = {} THEN 0 ELSE C!SetMin(ks)

\* A call rank rk posts on channel th in this step is the one it logged next there (lookahead: a
\* posted call stays as it is until its collective completes, so a post the log contradicts is cut
\* at once instead of at the event, which keeps the search small). Nothing logged there any more:
\* the trace ended first, any post is allowed.
PostAhead(rk, th) ==
    (coll[rk][th] = C!NoCall /\ coll'[rk][th] # C!NoCall) =>
        LET k == NextOn(rk, th, l)
        IN  \* IF, not "k = 0 \/ ...": TLC explores every disjunct, and Trace[0] does not exist
            IF k = 0 THEN TRUE
            ELSE LET e == Trace[k]
                     i == CHOOSE x \in DOMAIN e.m : e.m[x] = rk
                     c == coll'[rk][th]
                 IN  /\ c.site = e.site
                     /\ e.site = "RECV" \/ /\ c.op = e.op
                                           /\ Len(c.val) = Len(e.val[i])
                                           /\ Observed(e.site, c.val) = Observed(e.site, e.val[i])

\* The spec action that completes a collective at this site.
CompletesAt(site) ==
    \/ site = "RECV" /\ RecvComplete
    \/ site = "S123" /\ EventsComplete
    \/ site = "S4"   /\ S4Complete
    \/ site = "S7"   /\ S7Complete
    \/ site = "S5"   /\ SyncComplete
    \/ site = "S6"   /\ AbortBarrierComplete
    \/ site = "S2"   /\ LoadCheckComplete

-----------------------------------------------------------------------------
(* One predicate per logged event, named after the actions it matches.      *)

\* The collective of event l completes: every member posted what it logged and got back what it
\* logged, in the state it logged at RECV; then the spec's completion step.
IsCollectiveCompletes ==
    /\ l <= Len(Trace)
    /\ LET e == Trace[l]
       IN  /\ e.ev = "CollectiveCompletes"
           /\ MembersAsLogged(e)
           \* the calls each member posted (site, op, observed payload)
           /\ \A i \in DOMAIN e.m : PostedAsLogged(e, i)
           \* the result each member received (on the posted calls, before the step)
           /\ \A i \in DOMAIN e.m : ResultAsLogged(e, i)
           \* the state each member waited in, where it logged one
           /\ \A i \in DOMAIN e.m : SnapAsLogged(e, i)
           \* the protocol step itself
           /\ CompletesAt(e.site)
           \* the request RECV delivered
           /\ e.site = "RECV" => RecvAsLogged(e)
    /\ l' = l + 1

\* Whether rank rk's next S4 at or after event j posts 1 (the spec's S4 value is env[rk].clk).
NextS4Fires(rk, j) ==
    LET ks == {k \in j .. Len(Trace) : /\ Trace[k].ev = "CollectiveCompletes" /\ Trace[k].site = "S4"
                                       /\ \E i \in DOMAIN Trace[k].m : Trace[k].m[i] = rk}
    IN  /\ ks # {}
        /\ LET e == Trace[C!SetMin(ks)]
           IN  \E i \in DOMAIN e.m : e.m[i] = rk /\ e.val[i] = <<1>>

\* Rank rk's clock fires (EnvClock) only where the log needs it: with the knobs off, the clock is read
\* only by S4 and never goes back, so a clock that fires before an S4 the rank logged with 0, or with no
\* S4 left, leads to no behaviour that matches more of the log (lookahead, to keep the search small).
ClockAhead ==
    \A rk \in Ranks : (~env[rk].clk /\ env'[rk].clk) => NextS4Fires(rk, l)

\* Unlogged steps (partial observation): any of the spec's other actions, taken by TLC between
\* two events; the next logged values prune the wrong choices.
UnloggedStep ==
    /\ \/ \E r \in Ranks : \/ SchedRecv(r) \/ SchedAbortCheck(r) \/ SchedEvents(r)
                           \/ SchedPdLoad(r) \/ SchedAdmit(r)
                           \/ \E h \in 0 .. 1 : PfQuery(r, h)
                           \/ \E k \in 0 .. 1 : PfRead(r, k)
                           \/ PfPutHit(r) \/ PutAck(r) \/ BackupOk(r) \/ BackupRaise(r)
       \/ EnvNext
    /\ \A r \in Ranks, th \in Threads : PostAhead(r, th)
    /\ ClockAhead
    /\ UNCHANGED l

TraceInit ==
    /\ Init
    /\ l = 1
    /\ TLCSet(1, 0)         \* largest l reached so far (see TraceProgress)
    /\ TLCSet(2, 0)         \* states printed at that l

TraceNext ==
    \/ IsCollectiveCompletes
    \/ UnloggedStep

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

-----------------------------------------------------------------------------
(* Verdict and report (as TraceHiCacheSync.tla).                            *)

\* Violated (TLC exit 12) exactly when some behaviour of the spec matches every event: accepted.
TraceNotFullyMatched == l <= Len(Trace)

\* What each rank has posted (site, stage, group, value) or "none": what the spec allows next.
PostedCalls == [r \in Ranks |-> [th \in Threads |->
              IF coll[r][th] = C!NoCall THEN "none"
              ELSE <<coll[r][th].site, coll[r][th].stage, coll[r][th].grp.kind, coll[r][th].val>>]]

\* A CONSTRAINT that never cuts: prints the first few states at each new largest l (the runner
\* names the first event no behaviour matches and what the spec allowed there).
TraceProgress ==
    IF l > TLCGet(1)
      THEN TLCSet(1, l) /\ TLCSet(2, 1) /\ PrintT(<<"TRACE-AT", l, PostedCalls>>)
      ELSE IF l = TLCGet(1) /\ TLCGet(2) < 6
        THEN TLCSet(2, TLCGet(2) + 1) /\ PrintT(<<"TRACE-AT", l, PostedCalls>>)
        ELSE TRUE

=============================================================================
Measured (validate-trace, TLC one worker, 2 cores shared by eight sessions, 30 Nov 2026 23:40-23:55 UTC,
load 26-30; traces of `simulate --version unified --storage memory --trace`, keys 1..N, pools of N
pages, write_back, data off; wall time of TLC as validate-trace prints it):
  run (dp,cp,tp, policy, seed, requests)        ranks  events  lines  distinct  TLC time  verdict
  1,2,1 timeout seed 1, 3 req (CI)                 2      26      52       567    13.9 s   accepted
  1,1,2 wait_complete seed 6, 3 req (CI)           2      35      70     1,085    22.3 s   accepted
  1,2,1 timeout seed 1, 3 req, storage off (CI)    2       8      16        89     8.7 s   accepted
  1,2,1 timeout seed 1, 8 req (long tier)          2      66     132     1,503    22.1 s   accepted
  1,2,1 best_effort seed 2, 4 req (long tier)      2      20      40       809    12.3 s   accepted
  1,2,2 timeout seed 2, 3 req (long tier)          4      38     152   18,604   107.7 s   accepted
Without the lookaheads the first run took 3,853 distinct states (PostAhead alone: 1,853), and the
four-rank run had 47,029 distinct states after 5 min 10 s when stopped (PostAhead alone, load ~28).

Diary:
  2026-11-30  first unified traces: TLC could not parse the S123 digest pair (64-bit, negative): the
              converter now writes it as 0, 0 (the spec's digest is a constant pair; Java checks its own).
  2026-11-30  Java mutants, each rejected: the final ack releasing every slot (at event 17, the next
              RECV's snapshot: host pages; with the snapshot check off, at event 18, S123's release
              count); S7 keeping the local hit (the run ends in RankFailed, rejected there). Equivalent
              under this shape (accepted): the hit drain popping the local hit-queue size (the run settles
              S7's outcomes, so local = MIN).
