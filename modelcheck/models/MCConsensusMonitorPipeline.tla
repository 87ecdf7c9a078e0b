---------------------- MODULE MCConsensusMonitorPipeline ----------------------
(***************************************************************************)
(* Bounds for ConsensusMonitorPipeline: those of MCHiCacheUnifiedPipeline  *)
(* (each cfg is a unipp_* cfg with SPECIFICATION MonSpec). The pipeline    *)
(* module is finite by construction (MaxSteps), so no pending-event bound  *)
(* is needed.                                                               *)
(***************************************************************************)
EXTENDS ConsensusMonitorPipeline, MCHiCacheUnifiedPipeline

=============================================================================
