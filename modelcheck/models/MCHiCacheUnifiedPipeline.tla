----------------------- MODULE MCHiCacheUnifiedPipeline -----------------------
(***************************************************************************)
(* Bounds for model checking HiCacheUnifiedPipeline. Each cfg picks a      *)
(* topology (PP = 2), the drain, the policy and one question's Knobs/Bugs. *)
(***************************************************************************)
EXTENDS HiCacheUnifiedPipeline

\* One request: one prefetch (query, hit, read, completion). Every question here is about the
\* counts one prefetch's queue entries are drained by on each stage; a second request only
\* repeats them (the pipeline is idle between requests: RecvComplete's bound).
MCNReq1 == 1
\* Host pool of one page: the hit allocation succeeds (identical on every rank).
MCHostCap == 1
\* Two messages in flight per pp pair: stage 0 may be two steps ahead of stage 1.
MCMaxLag == 2
\* Three logged steps per rank: request and S7 (step 1), hit drain and read (step 2), final
\* ack drain and insertion (step 3) fit, with every interleaving of the threads between them.
MCMaxSteps == 3

=============================================================================
