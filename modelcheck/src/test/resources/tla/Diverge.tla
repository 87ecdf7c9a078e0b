---- MODULE Diverge ----
\* Two ranks each keep a tree (a set of node ids) and an ack queue; rank 1 skips a collective in
\* SkipAck, so the trees of the two ranks diverge and Agreement fails (TLC exit 12). The values
\* use every kind TLC prints: integers, strings, booleans, tuples, sets, records and functions.
EXTENDS Naturals, Sequences
CONSTANT N
VARIABLES tree, acks, phase, log, step
vars == <<tree, acks, phase, log, step>>
Ranks == 0..N-1
Init == /\ tree = [r \in Ranks |-> {}]
        /\ acks = [r \in Ranks |-> <<>>]
        /\ phase = "init"
        /\ log = [last |-> "none", ok |-> TRUE]
        /\ step = 0
Insert == /\ step = 0
          /\ tree' = [r \in Ranks |-> {1, 2}]
          /\ acks' = [r \in Ranks |-> <<1>>]
          /\ phase' = "insert"
          /\ log' = [last |-> "S1", ok |-> TRUE]
          /\ step' = 1
SkipAck == /\ step = 1
           /\ tree' = [tree EXCEPT ![1] = @ \cup {3}]
           /\ acks' = [acks EXCEPT ![1] = <<>>]
           /\ phase' = "skip"
           /\ log' = [last |-> "S2", ok |-> FALSE]
           /\ step' = 2
Idle == /\ step = 2
        /\ UNCHANGED vars
Next == Insert \/ SkipAck \/ Idle
Spec == Init /\ [][Next]_vars
Agreement == \A r, s \in Ranks : tree[r] = tree[s]
====
