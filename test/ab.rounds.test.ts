// The A/B loop alone (rig/ab/abRounds.ts), on made-up runs and a made-up clock: ABBA order, when it
// stops (every gated row decided, the budget, the round limit, a signal) and what it keeps.
import { describe, expect, it } from 'vitest';
import { RoundInterrupted, roundOrder, runRounds, type RoundsSettings, type Side } from '../rig/ab/abRounds.ts';
import { DEFAULT_COMPARE_OPTIONS } from '../rig/report/compare/compareRuns.ts';
import type { RecordedMeasures } from '../rig/results/metricNames.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { run, samples, scenario } from './support/runResultFixture.ts';

const records: RecordedMeasures = { latencies: ['resume_latency'], counters: {} };
const p50Only = { ...DEFAULT_COMPARE_OPTIONS, tolerances: { p50: 0.2 } };

/** A run of 400 resume latencies, `factor` times slower than the baseline's. */
const runAt = (factor: number, seed: number): RunResult =>
  run([
    scenario('resume-latency', {
      latencies: { resume_latency: samples(400, 2_000, 6_000, seed).map((v) => v * factor) },
      records,
    }),
  ]);

function fakeIo(factor: Record<Side, number>, roundMs = 10_000, interruptAt?: { round: number; side: Side }) {
  let clock = 0;
  const calls: string[] = [];
  let seed = 1;
  return {
    calls,
    io: {
      now: () => clock,
      runSide: (side: Side, round: number) => {
        calls.push(`${round}${side === 'baseline' ? 'A' : 'B'}`);
        if (interruptAt && interruptAt.round === round && interruptAt.side === side)
          return Promise.reject(new RoundInterrupted('SIGINT'));
        clock += roundMs / 2;
        return Promise.resolve(runAt(factor[side], seed++));
      },
    },
  };
}

const settings = (over: Partial<RoundsSettings> = {}): RoundsSettings => ({
  minRounds: 2,
  maxRounds: 10,
  budgetMs: 600_000,
  compare: p50Only,
  ...over,
});

describe('A/B rounds', () => {
  it('interleaves the sides ABBA so a drift in the machine falls on both alike', () => {
    expect([1, 2, 3, 4].map(roundOrder)).toEqual([
      ['baseline', 'candidate'],
      ['candidate', 'baseline'],
      ['baseline', 'candidate'],
      ['candidate', 'baseline'],
    ]);
  });

  it('stops once every gated row is decided, not before the minimum rounds', async () => {
    const same = fakeIo({ baseline: 1, candidate: 1 });
    const identical = await runRounds(settings(), same.io);
    expect(identical.stop).toBe('resolved');
    expect(same.calls).toEqual(['1A', '1B', '2B', '2A']);
    expect(identical.rounds.at(-1)!.comparison.rows.map((r) => r.result)).toEqual(['no change']);
    const slower = await runRounds(settings(), fakeIo({ baseline: 1, candidate: 1.5 }).io);
    expect(slower.stop).toBe('resolved');
    expect(slower.rounds.at(-1)!.comparison.regressions.map((r) => r.measure)).toEqual(['resume_latency p50']);
    expect(slower.runs.baseline).toHaveLength(2);
    expect(slower.runs.candidate).toHaveLength(2);
  });

  it('does not start a round that would end past the budget, and leaves the undecided rows undecided', async () => {
    // ×1.2 sits on the tolerance's edge: the interval straddles it however many rounds are run.
    const edge = fakeIo({ baseline: 1, candidate: 1.2 }, 10_000);
    const outcome = await runRounds(settings({ budgetMs: 35_000 }), edge.io);
    expect(outcome.stop).toBe('budget');
    expect(outcome.rounds).toHaveLength(3);
    expect(outcome.rounds.at(-1)!.comparison.notJudged.map((r) => r.result)).toEqual(['inconclusive']);
    const capped = await runRounds(settings({ maxRounds: 2 }), fakeIo({ baseline: 1, candidate: 1.2 }).io);
    expect(capped.stop).toBe('max rounds');
  });

  it('ends on a signal with the whole rounds it has, dropping the half round', async () => {
    const stopped = fakeIo({ baseline: 1, candidate: 1 }, 10_000, { round: 2, side: 'baseline' });
    const outcome = await runRounds(settings({ minRounds: 5 }), stopped.io);
    expect(outcome.stop).toBe('interrupted');
    expect(stopped.calls).toEqual(['1A', '1B', '2B', '2A']);
    expect(outcome.rounds).toHaveLength(1);
    expect(outcome.runs.baseline).toHaveLength(1);
    expect(outcome.runs.candidate).toHaveLength(1);
  });
});
