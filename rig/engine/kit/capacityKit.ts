// What a load or capacity scenario builds on ('a2a-rig' exports this module as `capacity`): open-model
// arrival schedules for ctx.runOpenModel, the capacity search and its step verdicts, the SLO names,
// and whether the load reached the agent at all. Only re-exports: the work is in rig/load.
export { constantArrivals, steppedArrivals, geometricRates } from '../../load/arrivalSchedule.ts';
export type { Arrival, RateStep } from '../../load/arrivalSchedule.ts';
export { CAPACITY_SERIES, capacityCheckName, sloBreaches, type CapacitySlo } from '../../load/capacitySlo.ts';
export {
  judgeStep,
  kneeText,
  perSecond,
  searchKnee,
  stepCompletions,
  stepCpuCost,
  stepTimeouts,
  stepVerdict,
  rigCpuCounts,
  type ProbeOutcome,
  type StepVerdict,
} from '../../load/capacitySearch.ts';
export { assertReached, UNREACHED } from '../../load/reachedAgent.ts';
