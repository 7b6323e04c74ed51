// The two flags that give a run (or a merge) its thresholds, shared by the verbs that evaluate them.
import type { Command } from 'commander';
import { parseThresholds, type Threshold } from './thresholdExpression.ts';

export interface ThresholdFlags {
  threshold: string[];
  thresholdsFile?: string;
}

export function addThresholdOptions(command: Command): Command {
  return command
    .option(
      '--threshold <expr>',
      'fail the run (exit 1) unless this holds, e.g. resume_latency.p95<1000, cf4:resume_latency.p99<=250, ' +
        'capacity:round_trip{rate=40}.p95<500, duplicate-flood:answers_accepted==1, checks.rate>=1 ' +
        '(latency bounds in ms; a name no scenario of this run records is refused before the run; repeatable)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--thresholds-file <file>', 'more thresholds, one per line (# comments)');
}

/** Parses the flags' thresholds; a bad expression is a UserError naming it. */
export function thresholdsFromFlags(flags: ThresholdFlags): Threshold[] {
  return parseThresholds(flags.threshold, flags.thresholdsFile);
}
