package dev.hicachesync.sim.workload;

/**
 * One request of a workload: prompt tokens, the tokens it will generate, how long it decodes, when it may
 * be admitted and when (if ever) it is aborted while waiting.
 *
 * @param rid request id, unique in the run
 * @param prompt prompt tokens
 * @param output generated tokens (appended and cached when the request finishes)
 * @param decodeSteps scheduler steps the request runs once admitted (≥ 1)
 * @param eligibleStep first step at which it may be admitted (models queueing behind other work)
 * @param abortStep step at which it is aborted if still waiting, or -1
 */
public record Request(
    String rid, int[] prompt, int[] output, int decodeSteps, long eligibleStep, long abortStep) {}
