---------------------------- MODULE Collectives ----------------------------
(***************************************************************************)
(* Rendezvous semantics of CPU collectives (gloo all_reduce MIN/MAX,       *)
(* broadcast, barrier) on process groups.                                  *)
(*                                                                         *)
(* Modelled (torch.distributed on gloo CPU groups, as HiCache uses them in *)
(* hiradix_cache.py / cache_controller.py): a participant is a thread of   *)
(* a rank; a call is blocking; a call carries [group, call site, stage,    *)
(* op, payload size, payload]. The k-th call of every member of a group   *)
(* pairs with the k-th call of every other member. Because calls block, a *)
(* thread has at most one outstanding call, and every call on a group     *)
(* completes for all members at once, so "the k-th calls" are simply the  *)
(* calls currently posted on that group: no call counters are needed.     *)
(* The last arriver completes the collective for everyone in one step     *)
(* (done by the protocol module, which also resumes every member).        *)
(*                                                                         *)
(* Abstracted: gloo's transport, timeouts (gloo's default timeout is long  *)
(* and SGLang treats its expiry as a crash) and payload dtypes.            *)
(* A member that never calls leaves the others blocked: no action of      *)
(* theirs is enabled, so TLC reports a deadlock.                           *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets, Topology

CONSTANT
    Threads     \* threads per rank that call collectives (e.g. scheduler, prefetch thread)

\* A group is identified by its kind, the thread (channel) that uses it, and its members.
Group(kind, ch, members) == [kind |-> kind, ch |-> ch, m |-> members]

\* "No outstanding call" for a thread.
NoCall == [site |-> "none"]

\* coll[r][th]: the outstanding (blocking) collective call of thread th of rank r, or NoCall.
VARIABLE coll

\* A call record.
Call(g, site, stage, op, val) ==
    [grp |-> g, site |-> site, stage |-> stage, op |-> op, size |-> Len(val), val |-> val]

\* Every member of g has its call posted on g (the collective can complete).
AllPosted(g) ==
    \A q \in g.m : coll[q][g.ch] # NoCall /\ coll[q][g.ch].grp = g

\* Posted calls agree on the call site, stage, op and payload size.
\* (Equality is transitive: comparing every member with one of them is the same as comparing
\* every pair, in linear rather than quadratic evaluations.)
Signature(q, ch) == <<coll[q][ch].site, coll[q][ch].stage, coll[q][ch].op, coll[q][ch].size>>
Matched(g) ==
    LET sig0 == Signature(CHOOSE q \in g.m : TRUE, g.ch)
    IN  \A q \in g.m : Signature(q, g.ch) = sig0

SetMin(S) == CHOOSE x \in S : \A y \in S : x <= y
SetMax(S) == CHOOSE x \in S : \A y \in S : x >= y

\* The result of the collective on g: element-wise MIN or MAX of the payloads
\* ("BCAST" = MAX where only the source contributes a non-zero value; "BARRIER" = <<>>).
Result(g) ==
    LET any == coll[CHOOSE q \in g.m : TRUE][g.ch]
    IN  [i \in 1 .. any.size |->
            IF any.op = "MIN" THEN SetMin({coll[q][g.ch].val[i] : q \in g.m})
                              ELSE SetMax({coll[q][g.ch].val[i] : q \in g.m})]

\* INV-1: whenever every member of a group is posted on that group, the calls
\* agree on site, stage, op and size (the k-th calls pair up).
\* Each group is checked once, by its lowest member: a group whose lowest member has not posted
\* on it is not AllPosted, so no other member's view of it can fail the check.
LeadsGroup(r, th) == coll[r][th] # NoCall /\ \A q \in coll[r][th].grp.m : r <= q
CollectiveMatching ==
    \A r \in Ranks, th \in Threads :
        LeadsGroup(r, th) =>
            (AllPosted(coll[r][th].grp) => Matched(coll[r][th].grp))

=============================================================================
