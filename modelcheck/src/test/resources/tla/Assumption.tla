---- MODULE Assumption ----
\* An assumption that is false (TLC exit 10).
EXTENDS Naturals
CONSTANT K
ASSUME K > 5
VARIABLE x
Init == x = K
Spec == Init /\ [][x' = x]_x
====
