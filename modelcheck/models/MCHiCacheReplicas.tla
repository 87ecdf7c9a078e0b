-------------------------- MODULE MCHiCacheReplicas --------------------------
(***************************************************************************)
(* Bounds for model checking HiCacheReplicas. Only bounds live here; the   *)
(* cfg files pick a topology, the three knobs and one traffic shape.       *)
(***************************************************************************)
EXTENDS HiCacheReplicas

\* B2/B16 (dp = 2): replica A gets two requests, replica B none. Independent traffic is the
\* point: with the same number of requests on both replicas the tp-group S1 calls pair up.
MCTrafficBusyIdle == <<<<1, 2>>, <<>>>>
\* Both replicas busy with different streams (the start-up models).
MCTrafficBoth == <<<<1>>, <<2>>>>
\* B13 (dp = 1): key 1 is computed and backed up, then requested again after it left
\* L1/L2: the third request's S7 queries storage. (With <<1, 1>> the second query always
\* comes before the first ack is popped, so storage would never be read back.)
MCTrafficReread == <<<<1, 2, 1>>>>

\* One page per key and CP shard: S7 MIN = 0 revokes, 1 reads.
MCThreshold == 1

\* Ad-hoc models (adhoc-replicas.cfg.template, any DP): replica 1 gets keys 1 and 2, every other
\* replica one key of its own. Uneven and different streams, as in B2/B16: replicas step
\* independently, and only a group spanning replicas would make one wait for another.
MCTrafficAdhoc == [d \in 1 .. DP |-> IF d = 1 THEN <<1, 2>> ELSE <<d + 1>>]

=============================================================================
