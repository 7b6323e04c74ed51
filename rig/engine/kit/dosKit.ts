// A DoS scenario of your own mix of the rig's attacks, judged like scenarios/dos/*.ts ('a2a-rig'
// exports this module as `dos`): the family runner, its records, budgets and parameters. Only
// re-exports: the runs and their judging are in rig/engine/dos.
export { runDosFamily } from '../dos/dosScenario.ts';
export { DOS_RECORDS } from '../dos/dosJudge.ts';
export { dosBudget, dosProfile, openFilesSoftLimit } from '../dos/dosParams.ts';
export type { DosParams, AttackChoice } from '../dos/dosParams.ts';
export type { AttackName } from '../../attack/attackRegistry.ts';
export type { MixedRunPlan, MixedRunResult, Phase, PlannedAttack } from '../dos/attackRun.ts';
