---- MODULE Grid ----
\* Two counters modulo 40 stepped one at a time: 1,600 distinct states, every one with successors, and an
\* invariant that holds (the distributed runner's test: the same count with TLC's workers as without).
EXTENDS Naturals
VARIABLES x, y
vars == <<x, y>>
Init == x = 0 /\ y = 0
Next == \/ x' = (x + 1) % 40 /\ UNCHANGED y
        \/ y' = (y + 1) % 40 /\ UNCHANGED x
Spec == Init /\ [][Next]_vars
InRange == x < 40 /\ y < 40
Moves == []<><<Next>>_vars
====
