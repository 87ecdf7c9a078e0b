---- MODULE LevelBound ----
\* A counter without end, bounded by a constraint on TLC's search depth: TLC finds the initial state and the
\* three after it (exit 0). TLC evaluates a definition of constant level once, before the search, when it can;
\* TLCGet("level") refuses that in a new JVM (no search has started), so the constraint is evaluated per state.
EXTENDS Naturals, TLC
VARIABLE x
Init == x = 0
Next == x' = x + 1
Spec == Init /\ [][Next]_x
FirstLevels == TLCGet("level") < 4
====
