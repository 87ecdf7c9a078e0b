---- MODULE Ok ----
\* A counter modulo 3: every state has a successor and the invariant holds (TLC exit 0).
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = (x + 1) % 3
Spec == Init /\ [][Next]_x
Small == x < 3
====
