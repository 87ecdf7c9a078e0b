--------------------------- MODULE TraceHiCacheRun ---------------------------
(***************************************************************************)
(* Trace validation of a run as users make it: the simulator's own         *)
(* scheduler loop (`simulate --trace FILE`, the same run as without        *)
(* --trace), the Mooncake replay, a soak, an engine's loop. Is every event *)
(* of the recorded run a step the HiCache sync protocol allows?            *)
(*                                                                          *)
(* Such a run has what HiCacheSync's models abstract away: the workload's  *)
(* broadcast RECV delivering any number of requests, several requests      *)
(* running at once, decode steps, prompts sharing prefixes (node splits),  *)
(* LRU over a real radix tree, keys of many pages with storage on, every   *)
(* write policy and prefetch policy, aborts (of a waiting request: S6; of  *)
(* a running one: a finish, no sync point). Following the cache's own     *)
(* computation (which node a match splits, which leaf eviction picks, how  *)
(* many pages a decode adds) would make the trace spec the implementation  *)
(* a second time. This module takes that computation from the trace, as   *)
(* the trace's data (the design of trace validation: the trace resolves    *)
(* nondeterminism), and checks every event against the protocol rule it    *)
(* must follow:                                                             *)
(*                                                                          *)
(*  R1 group   : each sync point reduces over the groups HiCacheSync's     *)
(*               SyncGroups gives its site under the run's Version (the     *)
(*               heart of the versions: pre20460 tp_cache_group, post20460 *)
(*               attn_cp then attn_tp, merged one fused S123), in order of *)
(*               stage, singletons skipped; RECV over the sync domain.      *)
(*  R2 result  : every member got the MIN / MAX (HiCacheSync's OpOf) of    *)
(*               what the members posted; a later stage posts what the     *)
(*               earlier one returned.                                      *)
(*  R3 order   : a rank's scheduler runs RECV, then the event check (S1,  *)
(*               S2, S3 or S123, every stage) with its aborts (S6) before  *)
(*               or after it, then the admission loop (S4, S5), then RECV   *)
(*               again; S5 follows an S4                                    *)
(*               exactly when the S4 result lets the prefetch stop (S4's    *)
(*               MAX [not done, failed] has not done 0 or failed 1);        *)
(*               best_effort has no S4. The prefetch thread runs S7 only.   *)
(*  R4 local   : the local value of a queue at the event check is the     *)
(*               number of its leading done (ready) entries: at least what *)
(*               was known done after the last pop (a completed transfer    *)
(*               stays completed: nothing un-completes), at most the queue *)
(*               length where it is known (write and load acks: RECV's      *)
(*               snapshot, no push between RECV and the event check; revokes:*)
(*               the snapshot plus the revoking S7 decisions since).        *)
(*  R5 decision: every member pops exactly the agreed result (HP5: the      *)
(*               MIN is at most its own done count), as logged in pop.      *)
(*  R6 S7      : a revoke (MIN below PrefetchThreshold) queues one revoke.  *)
(*  R7 RECV    : a rank's snapshot at RECV (a lockstep point) shows no      *)
(*               queue shorter than what it held after its last pops        *)
(*               (entries leave a queue only by a synced pop) and exactly   *)
(*               the revokes it holds.                                      *)
(*  R8 forward : with PP > 1 a later stage takes, in order, exactly the     *)
(*               scheduler decisions the stage before it made (its "pipe"   *)
(*               lines), and pops what it took (R5).                        *)
(* and, as the model's invariants, on every state that matches a prefix:   *)
(*  TreeAgreement, AckAgreement, AllocAgreement, PrefetchAgreement: the    *)
(*  members of each RECV logged the same snapshot (tree digest, requests   *)
(*  waiting, running and aborted while running; queues and acks digest;    *)
(*  free pages and allocations digest; prefetch digest and prefetch queues *)
(*  between ranks that made the same number of S7 decisions, as            *)
(*  HiCacheSync's AgreeSettledAt).                                          *)
(*                                                                          *)
(* Taken from the trace (checked only through agreement): the tree and its *)
(* pools (which node is hit, split, evicted, loaded back; free pages), the *)
(* requests waiting and running, how many entries a step pushes onto each  *)
(* queue (an insert's write-through, a load-back, a storage backup, the    *)
(* host slots an S5 or an abort hands back), and what the environment did  *)
(* (which copies and reads completed: the local values).                   *)
(*                                                                          *)
(* Cost: the module is deterministic given the trace (every choice is a    *)
(* logged value), one state per event: linear in the trace's length. A     *)
(* trace may therefore be validated in windows, each starting from the     *)
(* single state the previous window ended in (TraceStart): the same set of *)
(* behaviours as one pass.                                                  *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets, Topology, TraceLog, TLC

CONSTANTS
    Version,            \* "pre20460" | "post20460" | "merged" | "unified" (the run's; the header's Version)
    Policy,             \* "best_effort" | "wait_complete" | "timeout"
    StorageOn,          \* L3 storage on (S3 with post20460 / pre20460, S4-S7)
    PrefetchThreshold   \* pages: an S7 MIN below it revokes

ASSUME Version \in {"pre20460", "post20460", "merged", "unified"}
Unified == Version = "unified"
ASSUME Policy \in {"best_effort", "wait_complete", "timeout"}

\* HiCacheSync, for its sync groups and reduction ops only: every one of its variables and the constants
\* its group choice does not read are fixed (none of them is state here). Version unified reduces over the
\* CP x TP grid in one collective, as merged does, but never split (its groups are HiCacheUnified.tla's HG,
\* PFG and SYG: UGroups below).
HS == INSTANCE HiCacheSync WITH
        Version <- IF Unified THEN "merged" ELSE Version, WritePolicy <- "write_through", Requests <- <<1>>, PagesPerKey <- 1, DeviceCap <- 1, HostCap <- 1,
        PoolSizes <- [r \in Ranks |-> [dev |-> 1, host |-> 1]], Bugs <- {}, Knobs <- {}, WaitingCap <- 1,
        coll <- 0, reqIdx <- 0, waiting <- 0, backlog <- 0, cursor <- 0, running <- 0, tree <- 0,
        nextId <- 0, devFree <- 0, hostFree <- 0, wq <- 0, wDone <- 0, lq <- 0, lDone <- 0, sbq <- 0,
        baq <- 0, rvq <- 0, rlq <- 0, pf <- 0, popped <- 0, ares <- 0, lenv <- 0

\* The queues a sync point pops, in HiCacheSync's order (popped's fields); unified's S123 pops the write and
\* load acks, its hit queue, its ack-prefetch queue, the backup acks and the host releases (and ends in the
\* digest pair: DigestAt).
Queues == <<"w", "l", "rv", "ba", "rl">>
UQueues == <<"w", "l", "hq", "aq", "ba", "rl">>
QNames == {"w", "l", "rv", "ba", "rl", "hq", "aq"}
\* The queue of entry j of a site's payload of n entries (S1 <<w>>, S2 <<l>>, S3 <<rv, ba, rl>>, S123 all
\* five; unified: the six of UQueues with storage on, w and l without, then the digest pair).
DigestAt(site, n, j) == Unified /\ site = "S123" /\ j > n - 2
QueueAt(site, j) == CASE Unified -> UQueues[j]
                      [] site = "S1" -> "w" [] site = "S2" -> "l" [] site = "S3" -> Queues[2 + j]
                      [] OTHER -> Queues[j]
PopSites == {"S1", "S2", "S3", "S123"}
\* What a member logs as popped at the last stage of a pop site that applied result x: x itself, or for
\* unified's S123 the implementation's popped counts [w, l, rv, ba, rl] (its hit and ack drains are no
\* popped count; it has no revoke queue).
PopOf(site, x) == IF ~Unified THEN x
                  ELSE IF Len(x) = 8 THEN <<x[1], x[2], 0, x[5], x[6]>> ELSE <<x[1], x[2], 0, 0, 0>>

\* The event check's chain of collectives of rank r: <<site, stage>> in order (HiCacheSync's Enter chain
\* S1 -> S2 -> S3, or S123; S3 only with storage on), singleton groups skipped.
EvSites == IF Version = "merged" THEN <<"S123">>
           ELSE <<"S1", "S2">> \o (IF StorageOn THEN <<"S3">> ELSE <<>>)
RECURSIVE ChainOf(_, _)
ChainOf(r, ss) == IF ss = <<>> THEN <<>>
                  ELSE [k \in 1 .. Len(HS!SyncGroups(r, Head(ss))) |-> <<Head(ss), k>>] \o ChainOf(r, Tail(ss))
\* unified: every sync point reduces once over the CP x TP grid of the rank's stage, skipped when a singleton;
\* named as the trace names it (domain on a full grid, else the one non-singleton attention group); S7 and the
\* completion sync (S5) on the prefetch side (channel pf), the rest on the scheduler's.
UKind == IF CP > 1 /\ TP > 1 THEN "domain" ELSE IF CP > 1 THEN "attn_cp" ELSE "attn_tp"
UGroups(r, site) ==
    IF site = "RECV" THEN HS!SyncGroups(r, "RECV")
    ELSE IF CP * TP = 1 THEN <<>>
    ELSE <<[kind |-> UKind, ch |-> IF site \in {"S5", "S7"} THEN "pf" ELSE "sched", m |-> StageDomain(r)]>>
\* PP > 1 (but pre20460, whose stages each reduce alone: B6): a later stage makes no scheduler sync point of its
\* own; it takes each decision of the stage before it over the pipeline channel and forwards it on (the
\* SyncLayer's follower branch, HiCachePipeline's PPSync "forward"). The trace records each decision a later stage
\* receives as a one-member collective of group kind "pipe" (value and result the decision; at a pop site, its
\* pops): the later stage's scheduler sync points, checked by the same rules (R3 order, R5 pops, R7 at RECV) and
\* against the decision the stage before it made (R8 below). Its prefetch side reduces over its stage's groups
\* and then over the pp group, which the trace does not record: with PP > 1 no logged S7 (or completion) result
\* is the final decision of any stage.
Forwarded == PP > 1 /\ Version # "pre20460"
Follower(r) == Forwarded /\ StageOf(r) > 0
\* The scheduler sync points a stage forwards down the pipeline (unified's S5, the completion sync, is its
\* prefetch side's).
FwdSites == {"S1", "S2", "S3", "S123", "S4", "S6"} \cup (IF Unified THEN {} ELSE {"S5"})
PipeGroup(r) == [kind |-> "pipe", ch |-> "sched", m |-> {r}]
GroupsOf(r, site) ==
    IF Follower(r) /\ site \in FwdSites THEN <<PipeGroup(r)>>
    ELSE IF Unified THEN UGroups(r, site) ELSE HS!SyncGroups(r, site)
\* A later stage receives every site of the event check once, whatever the size of its stage's groups.
EvChainTable == [r \in Ranks |-> IF Follower(r)
                                   THEN IF Unified THEN <<<<"S123", 1>>>> ELSE [k \in 1 .. Len(EvSites) |-> <<EvSites[k], 1>>]
                                 ELSE IF Unified THEN [k \in 1 .. Len(UGroups(r, "S123")) |-> <<"S123", k>>]
                                 ELSE ChainOf(r, EvSites)]
EvChain(r) == EvChainTable[r]
\* Stages of a site on rank r.
Stages(r, site) == Len(GroupsOf(r, site))

NoSnapRec == [obs |-> FALSE]

\* The pipeline channel from rank Up(d) of the stage before to rank d (R8), kept in d's state: fq holds the
\* decisions <<site, result>> one side logged that the other has not logged yet, fdir which side that is ("sent":
\* the upstream rank decided, "recvd": d received). A deciding rank's line may come after the later stage's (its
\* line is written once its pops are applied, after it forwarded): whichever side comes second must match the
\* head. A stage 0 whose every group is a singleton logs no decision, and its next stage is checked by R3, R5 and
\* R7 and at RECV through agreement, not against it (Linked).
Up(d) == d - StageSize
Down(u) == u + StageSize
Linked(d) == Follower(d) /\ (Follower(Up(d)) \/ Len(EvChainTable[Up(d)]) > 0)
Forwards(u, site) == Forwarded /\ StageOf(u) < PP - 1 /\ site \in FwdSites /\ Linked(Down(u))
ChanOk(c, side, x) == c.fq # <<>> /\ c.fdir # side => Head(c.fq) = x
ChanNext(c, side, x) == IF c.fq # <<>> /\ c.fdir # side THEN [c EXCEPT !.fq = Tail(@)]
                        ELSE [c EXCEPT !.fq = Append(@, x), !.fdir = side]

\* A rank's state as far as the protocol sees it. len[f]: entries of queue f (-1: not known yet);
\* dn[f]: leading entries known done (ready); ph: "start" | "ev" (in the event check, at chain index ev)
\* | "adm" (aborts and admission) | "stop"; s5: "free" | "need" (the last S4 let its prefetch stop: S5
\* next) | "no" (it did not); adm: an S4 or S5 ran this step (S6 must come before); open: the sync point
\* whose next stage is due (<<>>: none); carry: what its last stage returned; lv: the local value of the
\* sync point in progress; s7: S7 decisions made; pfOpen, pfCarry: the same for the prefetch thread;
\* snap: the last RECV snapshot.
\* With PP > 1 the revoke, hit and ack-prefetch queues are not counted (no logged S7 result is final: Forwarded).
Fresh == [len |-> [f \in QNames |-> IF PP > 1 /\ f \in {"rv", "hq", "aq"} THEN -1 ELSE 0],
          dn |-> [f \in QNames |-> 0],
          ph |-> "start", ev |-> 0, s5 |-> "free", adm |-> FALSE, open |-> <<>>, carry |-> <<>>,
          lv |-> <<>>, s7 |-> 0, pfOpen |-> <<>>, pfCarry |-> <<>>, snap |-> NoSnapRec, fq |-> <<>>, fdir |-> "sent"]

VARIABLES
    l,          \* index of the next event of Trace to match
    T,          \* T[r]: rank r's protocol state (Fresh's fields)
    lastRecv    \* the members of the last RECV matched ({} before the first)

traceVars == <<l, T, lastRecv>>

-----------------------------------------------------------------------------
(* Reading one event.                                                       *)

Members(e) == {e.m[i] : i \in DOMAIN e.m}
SeqMin(S) == CHOOSE x \in S : \A y \in S : x <= y
SeqMax(S) == CHOOSE x \in S : \A y \in S : x >= y
\* R2: what a collective of these members returns.
Reduced(e) == [k \in DOMAIN e.val[1] |->
                 IF e.op = "MIN" THEN SeqMin({e.val[i][k] : i \in DOMAIN e.m})
                 ELSE SeqMax({e.val[i][k] : i \in DOMAIN e.m})]

\* R1: the group the spec reduces this site's stage over, for member q.
GroupAsSpec(e, q) ==
    LET gs == GroupsOf(q, e.site)
    IN  /\ e.stage \in 1 .. Len(gs)
        /\ gs[e.stage] = [kind |-> e.grp, ch |-> e.ch, m |-> Members(e)]
        /\ e.op = HS!OpOf(e.site)

\* R4: the local value of a queue is a done count between what was known done and the queue's length.
QueueValueOk(t, f, v) == /\ t.dn[f] <= v
                         /\ t.len[f] < 0 \/ f \in {"ba", "rl"} \/ v <= t.len[f]

\* R5 and the new queue state after popping x[j] of each queue of the site, the local values lv.
AfterPops(t, site, lv, x) ==
    LET qs == {j \in DOMAIN x : ~DigestAt(site, Len(x), j)}
        fs == {QueueAt(site, j) : j \in qs}
        n(f) == x[CHOOSE j \in qs : QueueAt(site, j) = f]
        v(f) == lv[CHOOSE j \in qs : QueueAt(site, j) = f]
    IN  [t EXCEPT !.len = [f \in DOMAIN @ |-> IF f \in fs /\ @[f] >= 0 THEN @[f] - n(f) ELSE @[f]],
                  !.dn  = [f \in DOMAIN @ |-> IF f \in fs THEN v(f) - n(f) ELSE @[f]]]

\* The site the scheduler of a rank in state t may run next (R3), with the stage.
NextEvent(r, t) == IF t.ev <= Len(EvChain(r)) THEN EvChain(r)[t.ev] ELSE <<>>

-----------------------------------------------------------------------------
(* The step of one member of a scheduler collective: its new state, or "no" if the rules forbid it. *)

\* Entering a sync point at stage 1 (lv: the local value) or going on at a later stage.
Staged(t, e, i, r) ==
    IF e.stage = 1 THEN [t EXCEPT !.lv = e.val[i]]
    ELSE t

\* The member's state after its last stage of a sync point: the decision.
Decided(t, e, i, r) ==
    LET x == e.res[i]
    IN  CASE e.site \in PopSites -> AfterPops(t, e.site, t.lv, x)
          [] e.site = "S4" /\ Unified -> [t EXCEPT !.adm = TRUE]        \* stop or wait: no S5 on this thread
          [] e.site = "S4" -> [t EXCEPT !.s5 = IF x[1] = 0 \/ x[2] = 1 THEN "need" ELSE "no", !.adm = TRUE]
          [] e.site = "S5" -> [t EXCEPT !.s5 = "free", !.adm = TRUE]
          [] OTHER -> t

\* R3: an abort's S6 may also come between RECV and the event check (SGLang handles an abort with the
\* step's other input, before get_next_batch_to_run checks the events: api.StepOrder's ABORTS phase).
AbortBeforeEvents(t, e) == /\ e.site = "S6" /\ t.ph = "ev" /\ t.ev = 1
                           /\ e.stage = 1 => t.open = <<>>

\* Rules of one member's scheduler collective (other than RECV).
SchedOk(t, e, i, r) ==
    /\ t.ph \in {"ev", "adm"}
    /\ e.stage > 1 => t.open = <<e.site, e.stage - 1>> /\ e.val[i] = t.carry        \* R2 chain of stages
    /\ e.stage = 1 => t.open = <<>>
    /\ t.ph = "ev" => NextEvent(r, t) = <<e.site, e.stage>> \/ AbortBeforeEvents(t, e) \* R3 event check first
    /\ t.ph = "adm" =>
         /\ e.site \in (IF Unified THEN {"S4", "S6"} ELSE {"S4", "S5", "S6"})
         /\ e.stage = 1 =>
              /\ e.site = "S6" => ~t.adm                                             \* aborts before admission
              /\ e.site = "S4" => Policy # "best_effort" /\ t.s5 # "need"
              /\ e.site = "S5" => IF Policy = "best_effort" THEN TRUE ELSE t.s5 = "need"
    /\ e.stage = 1 /\ e.site \in PopSites /\ e.grp # "pipe" =>                         \* R4 (a received decision has no local value)
         \A j \in DOMAIN e.val[i] :
           IF DigestAt(e.site, Len(e.val[i]), j) THEN e.val[i][j] = e.res[i][j]         \* the digest conjunct
           ELSE QueueValueOk(t, QueueAt(e.site, j), e.val[i][j])
    /\ e.stage = 1 /\ e.site = "S4" => \A j \in DOMAIN e.val[i] : e.val[i][j] \in {0, 1}
    /\ e.stage = 1 /\ e.site = "S4" => Len(e.val[i]) = IF Unified THEN 1 ELSE 2
    /\ e.stage = 1 /\ e.site = "S6" => e.val[i] \in {<<>>, <<0>>}
    /\ e.stage = Stages(r, e.site) /\ e.site \in PopSites =>                          \* R5
         e.pop[i] = PopOf(e.site, e.res[i])

SchedNext(t, e, i, r) ==
    LET s  == Staged(t, e, i, r)
        last == e.stage = Stages(r, e.site)
        d  == IF last THEN Decided(s, e, i, r) ELSE s
        ev == IF t.ph = "ev" /\ e.site # "S6" THEN t.ev + 1 ELSE t.ev
    IN  [d EXCEPT !.open = IF last THEN <<>> ELSE <<e.site, e.stage>>,
                  !.carry = IF last THEN <<>> ELSE e.res[i],
                  !.ev = ev,
                  !.ph = IF t.ph = "ev" /\ ev > Len(EvChain(r)) THEN "adm" ELSE t.ph]

\* A rank whose chain of event-check collectives is empty goes to admission at once.
AfterRecv(r, t) == [t EXCEPT !.ph = IF Len(EvChain(r)) = 0 THEN "adm" ELSE "ev", !.ev = 1, !.s5 = "free",
                             !.adm = FALSE, !.open = <<>>, !.carry = <<>>]

\* R7: RECV's snapshot against the queues the rank held after its last pops; then they are known.
SnapOk(t, s) ==
    ~s.obs \/ /\ s.nwq >= t.len["w"] /\ s.nlq >= t.len["l"] /\ (t.len["rv"] < 0 \/ s.nrv = t.len["rv"])
              /\ s.nrl >= t.len["rl"] /\ (s.nba < 0 \/ s.nba >= t.len["ba"])
              /\ t.dn["w"] <= s.nwq /\ t.dn["l"] <= s.nlq /\ t.dn["rv"] <= s.nrv /\ t.dn["rl"] <= s.nrl
\* (The revoke, hit and ack-prefetch queues are tracked from the S7 and completion decisions, the others
\* learnt here; without a snapshot they are unknown until the next one.)
\* A rank whose event check has no collective (every group of it a singleton: one rank, or pre20460's
\* tp_cache_group under CP) pops its own counts with no sync point: such a rank's queues are never known, and it
\* is checked at RECV through agreement only (its snapshot equals every other rank's of the domain). A later
\* stage of a forwarding pipeline logs what it popped on its "pipe" lines: it is tracked as any other rank.
Untracked(r) == Len(EvChain(r)) = 0
Snapped(t, s, r) ==
    IF ~s.obs \/ Untracked(r)
      THEN [t EXCEPT !.len = [f \in DOMAIN @ |-> IF f \in {"rv", "hq", "aq"} /\ ~Untracked(r) THEN @[f] ELSE -1],
                     !.snap = s]
    ELSE [t EXCEPT !.len = [@ EXCEPT !.w = s.nwq, !.l = s.nlq, !.rv = IF @ < 0 THEN -1 ELSE s.nrv, !.rl = s.nrl,
                                     !.ba = IF s.nba < 0 THEN -1 ELSE s.nba],
                   !.snap = s]

RecvOk(t, e, i, r) ==
    /\ t.ph = "start" \/ (t.ph = "adm" /\ t.open = <<>> /\ t.s5 # "need")
    /\ SnapOk(t, e.snap[i])

\* The broadcast RECV of the simulator's loop carries [step, arrivals, stop]: stop 1 ends the rank's run.
Stopping(e, i) == Len(e.res[i]) = 3 /\ e.res[i][3] = 1

RecvNext(t, e, i, r) ==
    IF Stopping(e, i) THEN [Snapped(t, e.snap[i], r) EXCEPT !.ph = "stop"]
    ELSE AfterRecv(r, Snapped(t, e.snap[i], r))

\* The prefetch thread's S7 (and unified's completion sync S5): stages in order; the last one decides (R6):
\* a revoke queues one revoke; unified queues every S7 on its hit queue and every completion MIN on its
\* ack-prefetch queue.
PfOk(t, e, i, r) ==
    /\ e.site \in (IF Unified THEN {"S7", "S5"} ELSE {"S7"}) /\ t.ph # "stop"
    /\ e.stage > 1 => t.pfOpen = <<e.stage - 1>> /\ e.val[i] = t.pfCarry
    /\ e.stage = 1 => t.pfOpen = <<>>
PfNext(t, e, i, r) ==
    IF e.stage < Stages(r, e.site) THEN [t EXCEPT !.pfOpen = <<e.stage>>, !.pfCarry = e.res[i]]
    ELSE IF Unified /\ e.site = "S5" THEN [t EXCEPT !.pfOpen = <<>>, !.pfCarry = <<>>,
                                                  !.len.aq = IF @ >= 0 THEN @ + 1 ELSE @]
    ELSE IF Unified THEN [t EXCEPT !.pfOpen = <<>>, !.pfCarry = <<>>, !.s7 = @ + 1,
                                   !.len.hq = IF @ >= 0 THEN @ + 1 ELSE @]
    ELSE [t EXCEPT !.pfOpen = <<>>, !.pfCarry = <<>>, !.s7 = @ + 1,
                   !.len.rv = IF e.res[i][1] < PrefetchThreshold /\ @ >= 0 THEN @ + 1 ELSE @]

-----------------------------------------------------------------------------
(* The matching step.                                                       *)

MemberOk(e, i) ==
    LET r == e.m[i]
        t == T[r]
    IN  /\ GroupAsSpec(e, r)
        /\ IF e.grp = "pipe"                                                            \* R8 a received decision
             THEN e.val[i] = e.res[i] /\ (Linked(r) => ChanOk(t, "recvd", <<e.site, e.res[i]>>))
           ELSE e.res[i] = Reduced(e)
        /\ IF e.ch = "pf" THEN PfOk(t, e, i, r)
           ELSE IF e.site = "RECV" THEN RecvOk(t, e, i, r)
           ELSE SchedOk(t, e, i, r)

MemberNext(e, i) ==
    LET r == e.m[i]
        t == T[r]
    IN  IF e.ch = "pf" THEN PfNext(t, e, i, r)
        ELSE IF e.site = "RECV" THEN RecvNext(t, e, i, r)
        ELSE IF e.grp = "pipe" /\ Linked(r) THEN ChanNext(SchedNext(t, e, i, r), "recvd", <<e.site, e.res[i]>>)
        ELSE SchedNext(t, e, i, r)

\* R8: the members of e that forward its decision down the pipeline (a scheduler sync point's last stage), to q.
PushTo(e, q) == {i \in DOMAIN e.m : e.ch = "sched" /\ Forwards(e.m[i], e.site) /\ Down(e.m[i]) = q
                                    /\ e.stage = Stages(e.m[i], e.site)}
PushOk(e) == \A i \in DOMAIN e.m : i \in PushTo(e, Down(e.m[i])) => ChanOk(T[Down(e.m[i])], "sent", <<e.site, e.res[i]>>)

\* (The rules are evaluated as one boolean in the IF's condition: inside an action TLC would split each true
\* disjunct and implication of them into a successor of its own, the same state many times over.)
IsCollectiveCompletes ==
    /\ l <= Len(Trace)
    /\ LET e == Trace[l]
       IN  IF e.ev = "CollectiveCompletes" /\ (\A i \in DOMAIN e.m : MemberOk(e, i)) /\ PushOk(e)
             THEN /\ T' = [r \in Ranks |-> IF r \in Members(e)
                                            THEN MemberNext(e, CHOOSE i \in DOMAIN e.m : e.m[i] = r)
                                            ELSE IF PushTo(e, r) # {}
                                              THEN ChanNext(T[r], "sent", <<e.site, e.res[CHOOSE i \in PushTo(e, r) : TRUE]>>)
                                            ELSE T[r]]
                  /\ lastRecv' = IF e.site = "RECV" THEN Members(e) ELSE lastRecv
             ELSE FALSE
    /\ l' = l + 1

\* A window of a longer trace starts where the previous window ended (TraceWindowed, TraceStart: the
\* values of T and lastRecv in the state TLC reached there, written into TraceLog by validate-trace).
TraceInit ==
    /\ l = 1
    /\ T = IF TraceWindowed THEN TraceStart.T ELSE [r \in Ranks |-> Fresh]
    /\ lastRecv = IF TraceWindowed THEN TraceStart.lastRecv ELSE {}
    /\ TLCSet(1, 0)
    /\ TLCSet(2, 0)

TraceNext == IsCollectiveCompletes

-----------------------------------------------------------------------------
(* Verdict, invariants and report.                                          *)

\* Violated (TLC exit 12) exactly when every event is matched: the trace (window) is accepted.
TraceNotFullyMatched == l <= Len(Trace)

\* The snapshot fields each agreement compares, at the last RECV (a lockstep point).
Dig(s, k) == s.dig[k]
SnapsAgree(f(_)) ==
    \A q1, q2 \in lastRecv : T[q1].snap.obs /\ T[q2].snap.obs => f(T[q1].snap) = f(T[q2].snap)
SettledAgree(f(_)) ==
    \A q1, q2 \in lastRecv : T[q1].snap.obs /\ T[q2].snap.obs /\ T[q1].s7 = T[q2].s7
                             => f(T[q1].snap) = f(T[q2].snap)
\* abr: running requests aborted so far (-1 when the run aborts none). An abort of a running request is a
\* finish (cache_finished_req, no sync point; SGLang's abort_request marks it finished and the batch's result
\* releases it): no rule of its own, so what the members must agree on is which requests they aborted.
TreeAgreement == SnapsAgree(LAMBDA s : <<Dig(s, 1), s.wait, s.run, s.abr>>)
AckAgreement == /\ SnapsAgree(LAMBDA s : <<Dig(s, 2), s.nwq, s.nlq, s.nba>>)
                /\ SettledAgree(LAMBDA s : <<s.nrv, s.nrl>>)
AllocAgreement == SnapsAgree(LAMBDA s : <<Dig(s, 4), s.dfree, s.hfree>>)
PrefetchAgreement == SettledAgree(LAMBDA s : Dig(s, 3))

\* What each rank expects next (its phase and the sync point due), for the rejection report.
Posted == [r \in Ranks |-> [sched |-> IF T[r].ph = "ev" THEN NextEvent(r, T[r])
                                      ELSE IF T[r].open # <<>> THEN T[r].open
                                      ELSE <<T[r].ph>>,
                            pf |-> IF T[r].pfOpen = <<>> THEN "none" ELSE <<"S7", T[r].pfOpen[1] + 1>>]]

TraceProgress ==
    IF l > TLCGet(1)
      THEN TLCSet(1, l) /\ TLCSet(2, 1) /\ PrintT(<<"TRACE-AT", l, Posted>>)
      ELSE IF l = TLCGet(1) /\ TLCGet(2) < 6
        THEN TLCSet(2, TLCGet(2) + 1) /\ PrintT(<<"TRACE-AT", l, Posted>>)
        ELSE TRUE

=============================================================================
