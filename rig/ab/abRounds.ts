// A/B rounds, as tachometer runs them: the baseline and the candidate are measured in interleaved
// rounds (ABBA…: round 1 baseline first, round 2 candidate first), so whatever else the machine is
// doing — a neighbour's build, a CPU hog, a noisy hour — falls on both sides alike. After every
// round the paired comparison (compareRuns with `paired`: run i of one side with run i of the other)
// is taken again; sampling stops as soon as no gated row is undecided (each is a regression, an
// improvement or no change), or when the next round would not fit the time budget — then what is
// still undecided stays inconclusive and the exit says so (3), never a pass.
//
// This module is the loop alone; the rounds' runs (child `a2a-rig run` processes) are given to it
// (abCommand.ts), so the stopping rule is tested without starting anything.
import { compareRuns, type CompareOptions, type Comparison } from '../report/compare/compareRuns.ts';
import type { RunResult } from '../results/runResult.ts';

export type Side = 'baseline' | 'candidate';

/** ABBA: odd rounds run the baseline first, even rounds the candidate, so a drift hits both alike. */
export function roundOrder(round: number): [Side, Side] {
  return round % 2 === 1 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
}

export interface RoundsSettings {
  /** Rounds run before the loop may stop (a counter needs two runs a side for an interval). */
  minRounds: number;
  maxRounds: number;
  /** Wall time for all rounds; a round that would end past it is not started. */
  budgetMs: number;
  compare: CompareOptions;
}

export interface RoundRecord {
  round: number;
  order: [Side, Side];
  durationMs: number;
  /** The paired comparison over rounds 1..round. */
  comparison: Comparison;
}

/** Why the rounds ended. */
export type StopReason = 'resolved' | 'budget' | 'max rounds' | 'interrupted';

export interface RoundsOutcome {
  runs: Record<Side, RunResult[]>;
  rounds: RoundRecord[];
  stop: StopReason;
}

/** Thrown by a side's run when a signal stopped it: the loop ends with what it has. */
export class RoundInterrupted extends Error {}

export interface RoundsIo {
  runSide(side: Side, round: number): Promise<RunResult>;
  /** Milliseconds on a monotonic clock. */
  now(): number;
  onRound?(record: RoundRecord): void;
}

const resolved = (c: Comparison) => c.notJudged.length === 0;

/** Why the loop must not start round `next`, or undefined to go on. */
function stopBefore(next: number, rounds: RoundRecord[], elapsedMs: number, s: RoundsSettings): StopReason | undefined {
  const last = rounds.at(-1);
  if (!last) return undefined;
  if (rounds.length >= s.minRounds && resolved(last.comparison)) return 'resolved';
  if (next > s.maxRounds) return 'max rounds';
  // The longest round so far stands for the next one: a round is never cut, so it must fit whole.
  const longest = Math.max(...rounds.map((r) => r.durationMs));
  if (elapsedMs + longest > s.budgetMs) return 'budget';
  return undefined;
}

/** Runs rounds until every gated row is decided, the budget or the round limit ends, or a signal. */
export async function runRounds(settings: RoundsSettings, io: RoundsIo): Promise<RoundsOutcome> {
  const runs: Record<Side, RunResult[]> = { baseline: [], candidate: [] };
  const rounds: RoundRecord[] = [];
  const start = io.now();
  for (let round = 1; ; round++) {
    const stop = stopBefore(round, rounds, io.now() - start, settings);
    if (stop) return { runs, rounds, stop };
    const began = io.now();
    const order = roundOrder(round);
    const done: Partial<Record<Side, RunResult>> = {};
    try {
      for (const side of order) done[side] = await io.runSide(side, round);
    } catch (err) {
      // A half round is dropped: the paired comparison needs both sides of every round.
      if (err instanceof RoundInterrupted) return { runs, rounds, stop: 'interrupted' };
      throw err;
    }
    runs.baseline.push(done.baseline!);
    runs.candidate.push(done.candidate!);
    const comparison = compareRuns(runs.baseline, runs.candidate, { ...settings.compare, paired: true });
    const record: RoundRecord = { round, order, durationMs: io.now() - began, comparison };
    rounds.push(record);
    io.onRound?.(record);
  }
}
