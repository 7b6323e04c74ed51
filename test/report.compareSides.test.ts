// compare with several runs a side: run-to-run spread widens the interval instead of reading as a
// change, paired rounds, and the CLI's repeatable --baseline/--current and its removed flags.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../rig/protocol/userError.ts';
import { DEFAULT_COMPARE_OPTIONS, compareRuns } from '../rig/report/compare/compareRuns.ts';
import type { RecordedMeasures } from '../rig/results/metricNames.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { runRig } from './support/rigCli.ts';
import { health } from './support/rigHealthFixture.ts';
import { run, samples, scenario } from './support/runResultFixture.ts';

const loadRecords: RecordedMeasures = {
  latencies: ['resume_latency'],
  counters: { answers_per_s: 'throughput', answers_rejected: 'tally' },
};
const scale = (values: number[], factor: number) => values.map((v) => v * factor);

describe('a noisy machine and several runs a side', () => {
  const at = (factor: number, loadPerCore?: number, seed = 3) => {
    const r = run([
      scenario('load', {
        latencies: { resume_latency: scale(samples(2_000, 20_000, 400_000, seed), factor) },
        counters: { answers_per_s: 500 / factor },
        records: loadRecords,
      }),
    ]);
    return loadPerCore === undefined ? r : { ...r, rig: { ...r.rig, loadPerCore } };
  };

  it('judges latencies whatever the load, and notes the load each run started at', () => {
    const comparison = compareRuns(at(1, 0.4), at(3, 5.4), { ...DEFAULT_COMPARE_OPTIONS, quietMachine: true });
    expect(comparison.regressions.map((r) => r.measure)).toEqual([
      'resume_latency p50',
      'resume_latency p95',
      'resume_latency p99',
      'answers_per_s',
    ]);
    expect(comparison.notes).toContain(
      'load per core as the runs started: baseline 0.4; current 5.4 (what it did to the samples is in the intervals)',
    );
  });

  it('reads a run-to-run swing as inconclusive, not as a regression, once each side has several runs', () => {
    // One run a side cannot tell a swing between runs from a change: ×1.4 would look like a
    // regression, so on a shared machine it is not judged.
    const one = compareRuns(at(1), at(1.4, undefined, 4));
    expect(one.regressions).toEqual([]);
    expect(one.rows.find((r) => r.measure === 'resume_latency p50')!.result).toBe('inconclusive');
    // The same swing seen within each side (runs at ×1 and ×1.4 on both) widens the interval.
    const base = [at(1, undefined, 5), at(1.4, undefined, 6), at(1, undefined, 7)];
    const current = [at(1.4, undefined, 8), at(1, undefined, 9), at(1.4, undefined, 10)];
    const comparison = compareRuns(base, current);
    expect(comparison.regressions).toEqual([]);
    const p50 = comparison.rows.find((r) => r.measure === 'resume_latency p50')!;
    expect(p50.result).toBe('inconclusive');
    expect(p50.baseline).toMatch(/\(3 runs pooled\)$/);
    expect(comparison.rows.find((r) => r.measure === 'answers_per_s')!.interval).toBeDefined();
  });

  it('finds a change that all runs agree on, and no change across identical runs', () => {
    const seeds = [11, 12, 13, 14];
    const base = seeds.map((s) => at(1, undefined, s));
    expect(
      compareRuns(
        base,
        seeds.map((s) => at(1.6, undefined, s + 10)),
      ).regressions,
    ).toHaveLength(4);
    const same = compareRuns(
      base,
      seeds.map((s) => at(1, undefined, s + 10)),
    );
    expect(same.regressions).toEqual([]);
    expect(same.rows.find((r) => r.measure === 'resume_latency p50')!.result).toBe('no change');
  });

  it('does not judge a change when only one side had a saturated rig, and does when both had', () => {
    const saturated = health({ eventLoopDelayMs: { p50: 4, p99: 45, max: 80 } });
    const withHealth = (r: RunResult, h: ReturnType<typeof health>): RunResult => ({
      ...r,
      scenarios: r.scenarios.map((s) => ({ ...s, health: h })),
    });
    const quiet = withHealth(at(1), health());
    const slowBusy = withHealth(at(1.6, undefined, 4), saturated);
    const QUIET = { ...DEFAULT_COMPARE_OPTIONS, quietMachine: true };
    const oneSide = compareRuns(quiet, slowBusy, QUIET);
    expect(oneSide.regressions).toEqual([]);
    const p50 = oneSide.rows.find((r) => r.measure === 'resume_latency p50')!;
    expect(p50.result).toBe('inconclusive');
    expect(p50.note).toMatch(/the rig may have been the limit in the current run: .*event-loop delay p99 45.0 ms/);
    // The same slowdown with the rig saturated alike on both sides (A/B rounds beside a hog) stands.
    const both = compareRuns(withHealth(at(1), saturated), slowBusy, QUIET);
    expect(both.regressions.map((r) => r.measure)).toContain('resume_latency p50');
    expect(both.rows.find((r) => r.measure === 'resume_latency p50')!.note).toMatch(/both sides saturated alike/);
    // A saturated rig only makes an agent look worse: a current run slower than a saturated baseline
    // is slower for real (the regression stands); equal to it says nothing (no "no change").
    const busyBase = withHealth(at(1), saturated);
    const slowQuiet = withHealth(at(1.6, undefined, 4), health());
    const baseOnly = compareRuns(busyBase, slowQuiet, QUIET).rows.find((r) => r.measure === 'resume_latency p50')!;
    expect(baseOnly.result).toBe('regression');
    expect(baseOnly.note).toMatch(/it stands although the rig was saturated in the baseline run/);
    const sameQuiet = withHealth(at(1, undefined, 4), health());
    const equal = compareRuns(busyBase, sameQuiet, QUIET).rows.find((r) => r.measure === 'resume_latency p50')!;
    expect(equal.result).toBe('inconclusive');
  });

  it('counts a side saturated when at least half its runs were: one stray run in four does not stop a verdict', () => {
    const saturated = health({ eventLoopDelayMs: { p50: 4, p99: 45, max: 80 } });
    const busy = (r: RunResult, h = saturated): RunResult => ({
      ...r,
      scenarios: r.scenarios.map((x) => ({ ...x, health: h })),
    });
    const seeds = [21, 22, 23, 24];
    const base = seeds.map((s) => busy(at(1, undefined, s), health()));
    const slower = seeds.map((s) => at(1.6, undefined, s + 10));
    const stray = compareRuns(base, [busy(slower[0]!), ...slower.slice(1).map((r) => busy(r, health()))]);
    const p50 = stray.rows.find((r) => r.measure === 'resume_latency p50')!;
    expect(p50.result).toBe('regression');
    expect(p50.note).toMatch(/saturated in 0 of 4 baseline and 1 of 4 current runs, a minority each/);
    const mostly = compareRuns(base, [...slower.slice(0, 2).map((r) => busy(r)), ...slower.slice(2)]);
    expect(mostly.regressions).toEqual([]);
    expect(mostly.rows.find((r) => r.measure === 'resume_latency p50')!.note).toMatch(
      /the rig may have been the limit in the current runs \(2 of 4\): .*event-loop delay p99 45.0 ms/,
    );
  });

  it('pairs rounds only when asked and when both sides have as many runs', () => {
    const paired = { ...DEFAULT_COMPARE_OPTIONS, paired: true };
    const rounds = [1, 2, 3].map((s) => at(1, undefined, s));
    expect(compareRuns(rounds, rounds, paired).rows[0]!.interval!.method).toBe('paired runs and values');
    expect(() => compareRuns(rounds, rounds.slice(1), paired)).toThrow(UserError);
  });
});

describe('a2a-rig compare with several runs a side', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-sides-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, result: RunResult) => {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'results.json'), JSON.stringify(result));
    return join(dir, name);
  };
  const at = (name: string, factor: number) =>
    write(
      name,
      run([scenario('load', { latencies: { resume_latency: scale(samples(2_000, 20_000, 400_000, 3), factor) } })]),
    );

  it('takes --baseline and --current more than once, and refuses the flags the intervals replaced', async () => {
    const [a, b, slow] = [at('a', 1), at('b', 1), at('slow', 1.5)];
    const several = await runRig(['compare', '--baseline', a, '--baseline', b, '--current', slow]);
    expect(several.code).toBe(1);
    expect(several.stdout).toContain('2 runs pooled');
    const gone = await runRig(['compare', '--baseline', a, '--current', b, '--noise-floor-ms', '5']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('--noise-floor-ms is gone: compare now judges each row by a confidence interval');
    const none = await runRig(['compare', '--current', b]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('compare needs --baseline (one or more runs)');
  });
});
