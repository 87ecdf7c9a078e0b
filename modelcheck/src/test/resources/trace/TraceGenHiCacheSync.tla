------------------------- MODULE TraceGenHiCacheSync -------------------------
(***************************************************************************)
(* Test fixture generator: behaviours of HiCacheSync written down as the   *)
(* events the implementation logs, so that traces that are behaviours of   *)
(* the spec by construction can be fed to validate-trace (and edited to    *)
(* check that validation rejects what it must).                            *)
(*                                                                          *)
(* hist: one entry per completed collective, with what each member posted, *)
(* received and popped and, at RECV, the state it waited in. TLC runs this *)
(* with GenLongEnough as an invariant: the counterexample's last hist is   *)
(* the trace (TraceFixtures turns it into NDJSON, one line per member).    *)
(***************************************************************************)
EXTENDS HiCacheSync, TLC

CONSTANT GenEvents          \* how many collectives the generated trace holds

VARIABLE hist

\* Pool sizes: the header's DeviceCap and HostCap on every rank.
GenEqualPools == [r \in Ranks |-> [dev |-> DeviceCap, host |-> HostCap]]

\* What rank q popped in this step, in the order the trace logs it for the site.
GenPop(q, site) ==
    LET d(f) == popped'[q][f] - popped[q][f]
    IN  CASE site = "S1"   -> <<d("w")>>
          [] site = "S2"   -> <<d("l")>>
          [] site = "S3"   -> <<d("rv"), d("ba"), d("rl")>>
          [] site = "S123" -> <<d("w"), d("l"), d("rv"), d("ba"), d("rl")>>
          [] OTHER         -> <<>>

\* Rank q's state while it waits on its posted call (logged at RECV only).
GenSnap(q) == [dfree |-> devFree[q], hfree |-> hostFree[q], nwq |-> Len(wq[q]), nlq |-> Len(lq[q]),
               nrv |-> Len(rvq[q]), nrl |-> Len(rlq[q]), wait |-> waiting[q], run |-> running[q]]

GenCollective(g) ==
    LET any == coll[CHOOSE q \in g.m : TRUE][g.ch]
    IN  /\ CollectiveCompletes(g)
        /\ hist' = Append(hist,
              [grp |-> g.kind, ch |-> g.ch, m |-> g.m, site |-> any.site, stage |-> any.stage,
               op |-> any.op, val |-> [q \in g.m |-> coll[q][g.ch].val], res |-> C!Result(g),
               pop |-> [q \in g.m |-> IF any.stage = Len(SyncGroups(q, any.site))
                                        THEN GenPop(q, any.site) ELSE <<>>],
               snap |-> [q \in g.m |-> GenSnap(q)]])

\* Request streams the fixtures use (a cfg cannot write a sequence).
GenRequests1 == <<1>>
GenRequests3 == <<1, 2, 1>>
GenRequests4 == <<1, 2, 1, 2>>

GenInit == Init /\ hist = <<>>

GenNext ==
    \/ \E r \in Ranks, th \in Threads :
          coll[r][th] # C!NoCall /\ GenCollective(coll[r][th].grp)
    \/ (\E r \in Ranks : \/ PrefetchThreadQueries(r)
                         \/ WriteEventCompletes(r)
                         \/ LoadEventCompletes(r)
                         \/ StorageBackupCompletes(r)
                         \/ \E i \in 1 .. NR : StorageReadsPage(r, i) \/ TimeoutFires(r, i))
       /\ UNCHANGED hist

\* Violated as soon as hist is long enough: the counterexample is the generated behaviour.
GenLongEnough == Len(hist) < GenEvents

\* Violated by a trace whose ranks logged different states at the same RECV: the shortest
\* such behaviour is the fixture of a legacy run whose ranks diverged (pre20460 under CP).
GenSnapsAgree ==
    \A k \in 1 .. Len(hist) :
        hist[k].site = "RECV" => \A q1, q2 \in hist[k].m : hist[k].snap[q1] = hist[k].snap[q2]

\* Keeps the search to behaviours no longer than needed.
GenBound == Len(hist) <= GenEvents

=============================================================================
