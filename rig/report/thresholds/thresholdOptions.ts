// The two flags that give a run (or a merge) its thresholds: their help, read by rig/runOptions.ts's
// table and by merge, and their parsing.
import type { Command } from 'commander';
import { parseThresholds, type Threshold } from './thresholdExpression.ts';

export interface ThresholdFlags {
  threshold: string[];
  thresholdsFile?: string;
}

export const THRESHOLD_HELP = {
  threshold:
    'fail the run (exit 1) unless this holds, e.g. resume_latency.p95<1000, cf4:resume_latency.p99<=250, ' +
    'capacity:round_trip{rate=40}.p95<500, duplicate-flood:answers_accepted==1, checks.rate>=1 ' +
    '(latency bounds in ms; a name no scenario of this run records is refused before the run; repeatable)',
  thresholdsFile: 'more thresholds, one per line (# comments)',
} as const;

/** `merge`'s threshold flags, as the run's table gives them to `run` and `conform`. */
export function addThresholdOptions(command: Command): Command {
  return command
    .option('--threshold <expr>', THRESHOLD_HELP.threshold, (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--thresholds-file <file>', THRESHOLD_HELP.thresholdsFile);
}

/** Parses the flags' thresholds; a bad expression is a UserError naming it. */
export function thresholdsFromFlags(flags: ThresholdFlags): Threshold[] {
  return parseThresholds(flags.threshold, flags.thresholdsFile);
}
