---- MODULE AckRace ----
\* A B1-shaped race for the runner's tests, not the protocol: four ranks (CP = 2, TP = 2); each
\* rank's copy engine completes a write at its own time (rank-local ack queue); at the sync point
\* the ranks agree on how many acks to pop by a MIN over their group only. With Group = "tp" the
\* two CP halves decide separately, their trees diverge and TreeAgreement fails (TLC exit 12).
EXTENDS Naturals, Sequences, FiniteSets
CONSTANTS CP, TP, Group
VARIABLES rank, coll
vars == <<rank, coll>>
Ranks == 0..(CP * TP - 1)
\* Members of r's reduction group: its TP peers only, or every rank of the domain.
Peers(r) == IF Group = "tp" THEN {s \in Ranks : s \div TP = r \div TP} ELSE Ranks
Init == /\ rank = [r \in Ranks |-> [tree |-> {}, acks |-> <<>>, pc |-> "RECV", done |-> 0]]
        /\ coll = [site |-> "none", result |-> 0]
\* Rank r's copy engine completes the write of node n (rank-local timing).
RankAckArrives(r) == /\ rank[r].pc = "RECV"
                     /\ Len(rank[r].acks) < 1
                     /\ rank' = [rank EXCEPT ![r].acks = Append(@, 1)]
                     /\ UNCHANGED coll
\* Every rank reaches S1 and the group MIN decides how many acks to pop (lockstep).
SyncS1 == /\ \A r \in Ranks : rank[r].pc = "RECV"
          /\ \E r \in Ranks : Len(rank[r].acks) > 0
          /\ LET n(r) == CHOOSE m \in {Len(rank[s].acks) : s \in Peers(r)} :
                            \A s \in Peers(r) : m <= Len(rank[s].acks)
             IN rank' = [r \in Ranks |-> [rank[r] EXCEPT
                           !.tree = IF n(r) > 0 THEN @ \cup {7} ELSE @,
                           !.acks = SubSeq(@, n(r) + 1, Len(@)),
                           !.pc = "S1",
                           !.done = @ + n(r)]]
          /\ coll' = [site |-> "S1", result |-> Cardinality(Ranks)]
Finish == /\ \A r \in Ranks : rank[r].pc = "S1"
          /\ UNCHANGED vars
Next == (\E r \in Ranks : RankAckArrives(r)) \/ SyncS1 \/ Finish
Spec == Init /\ [][Next]_vars
TreeAgreement == \A r, s \in Ranks : rank[r].tree = rank[s].tree
====
