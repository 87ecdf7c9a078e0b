---- MODULE Big ----
\* Four ranks writing long values: the source of the captured output tlc-output/Big.out, which shows how
\* TLC breaks long values over lines (638,271 distinct states at the violation: too large for runner tests).
EXTENDS Naturals, Sequences, FiniteSets
VARIABLES a, b, s
Init == a = [i \in 0..3 |-> 0] /\ b = [i \in 0..3 |-> [x |-> 0, y |-> {}]] /\ s = <<>>
Next == \E i \in 0..3 : \E v \in 0..9 : a' = [a EXCEPT ![i] = v] /\ b' = [b EXCEPT ![i] = [x |-> v, y |-> {"alpha_long_string_" , "beta_long_string", "gamma_long_string_here"}]] /\ s' = IF Len(s) < 3 THEN Append(s, [k |-> i, v |-> v, t |-> "some long text for wrapping"]) ELSE s
Inv == ~(\A i \in 0..3 : a[i] = 9) 
====
