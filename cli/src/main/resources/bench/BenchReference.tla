---------------------------- MODULE BenchReference ----------------------------
(* The bench command's reference spec: three bounded counters, each incremented or reset, so (N+1)^3  *)
(* distinct states of three integers. It measures what TLC does per state on this machine when a      *)
(* state is trivial, the bar against which a catalogue model's states per second are read.            *)
EXTENDS Naturals
CONSTANT N
VARIABLES x, y, z
vars == <<x, y, z>>

TypeOK == x \in 0..N /\ y \in 0..N /\ z \in 0..N

Init == x = 0 /\ y = 0 /\ z = 0

Next ==
  \/ x < N /\ x' = x + 1 /\ UNCHANGED <<y, z>>
  \/ y < N /\ y' = y + 1 /\ UNCHANGED <<x, z>>
  \/ z < N /\ z' = z + 1 /\ UNCHANGED <<x, y>>
  \/ x' = 0 /\ y' = y /\ z' = z

Spec == Init /\ [][Next]_vars
=============================================================================
