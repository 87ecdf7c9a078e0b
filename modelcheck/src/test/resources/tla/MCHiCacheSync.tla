---- MODULE MCHiCacheSync ----
\* A stand-in with the real model's constants, for the CLI's ad-hoc tests (the real one comes
\* from modelcheck/models). Every rank inserts node 1 in lockstep, except that with version
\* pre20460 and CP > 1 the ranks with cp > 0 skip it (the shape of bug B1), so TreeAgreement
\* fails. "pipelined" is refused by an assumption, to make TLC itself fail.
EXTENDS Naturals
CONSTANTS DP, CP, TP, PP, Version, Policy, Storage
ASSUME Version \in {"pre20460", "post20460", "merged"}
ASSUME Policy \in {"best_effort", "wait_complete", "timeout"} /\ Storage \in BOOLEAN
VARIABLES tree, done
vars == <<tree, done>>
Ranks == 0..(DP * CP * TP * PP - 1)
Init == tree = [r \in Ranks |-> {}] /\ done = FALSE
Insert == /\ ~done
          /\ done' = TRUE
          /\ tree' = [r \in Ranks |->
                        IF Version = "pre20460" /\ CP > 1 /\ r % (CP * TP) >= TP THEN {} ELSE {1}]
Done == done /\ UNCHANGED vars
Spec == Init /\ [][Insert \/ Done]_vars
\* The tool adds the real module's rank-symmetry VIEW to an ad-hoc safety part; here every state is its own.
RankSymmetryView == vars
TreeAgreement == \A r, s \in Ranks : r \div (CP * TP) = s \div (CP * TP) => tree[r] = tree[s]
====
