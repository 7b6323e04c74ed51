// Merging runs: the merged histogram is the histogram of all the raw samples (percentiles of the
// union, exactly), counters add up, the worst verdict wins, checks line up by name.
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { LatencyTimeline } from '../rig/metrics/latencyTimeline.ts';
import { UserError } from '../rig/protocol/userError.ts';
import { mergeRuns } from '../rig/report/merge/mergeRuns.ts';
import { histogramOf, mergeInputs, run, samples, scenario } from './support/runResultFixture.ts';

const machineA = samples(3_000, 800, 20_000, 21); // a fast worker
const machineB = samples(1_000, 30_000, 2_000_000, 22); // a slow one, with a long tail
const machineC = samples(10, 1, 5, 23); // a tiny one at the bottom of the range

describe('mergeRuns', () => {
  const a = run(
    [
      scenario('load', {
        latencies: { resume_latency: machineA },
        counters: { answers: 3_000, answers_per_s: 150 },
        durationMs: 20_000,
      }),
    ],
    'run-a',
  );
  const b = run(
    [
      scenario('load', {
        latencies: { resume_latency: machineB },
        counters: { answers: 1_000, answers_per_s: 50 },
        durationMs: 21_000,
      }),
    ],
    'run-b',
  );
  const c = run(
    [scenario('load', { latencies: { resume_latency: machineC }, counters: { answers: 10 }, durationMs: 1_000 })],
    'run-c',
  );
  const merged = mergeRuns(mergeInputs(a, b, c), 'merged-x');
  const combined = histogramOf([...machineA, ...machineB, ...machineC]);

  it('equals the histogram of the combined raw samples, summary and every percentile', () => {
    const metric = merged.scenarios[0]!.metrics.resume_latency!;
    const { hdr, ...summary } = metric;
    expect(summary).toEqual(combined.summary());
    const decoded = LatencyHistogram.decode(hdr);
    for (let p = 0.5; p <= 100; p += 0.5) expect(decoded.percentileUs(p)).toBe(combined.percentileUs(p));
    expect(decoded.percentileUs(99.99)).toBe(combined.percentileUs(99.99));
    expect(decoded.count).toBe(4_010);
  });

  it('is not what averaging the runs’ percentiles would give', () => {
    const p99s = [machineA, machineB, machineC].map((s) => histogramOf(s).percentileUs(99));
    const averaged = p99s.reduce((x, y) => x + y) / p99s.length;
    const p99 = merged.scenarios[0]!.metrics.resume_latency!.p99;
    expect(Math.abs(p99 - averaged) / p99).toBeGreaterThan(0.2);
  });

  it('sums counters, keeps the longest duration, and records its sources', () => {
    const load = merged.scenarios[0]!;
    expect(load.counters).toEqual({ answers: 4_010, answers_per_s: 200 });
    expect(load.durationMs).toBe(21_000);
    expect(merged.mergedFrom!.map((m) => [m.runId, m.path])).toEqual([
      ['run-a', '/results/0/results.json'],
      ['run-b', '/results/1/results.json'],
      ['run-c', '/results/2/results.json'],
    ]);
    expect(merged).toMatchObject({
      runId: 'merged-x',
      schema: 'a2a-rig/results@1',
      verdict: 'passed',
      rig: { cpus: 6 },
    });
  });

  it('merging is associative: (a+b)+c equals a+b+c', () => {
    const ab = mergeRuns(mergeInputs(a, b), 'ab');
    const abc = mergeRuns(mergeInputs(ab, c), 'abc');
    const { hdr: _h1, ...once } = merged.scenarios[0]!.metrics.resume_latency!;
    const { hdr: _h2, ...twice } = abc.scenarios[0]!.metrics.resume_latency!;
    expect(twice).toEqual(once);
  });
});

describe('mergeRuns verdicts and checks', () => {
  it('takes the worst verdict (failed > errored > passed > skipped) with the reason of the run that gave it', () => {
    const merge = (...verdicts: Array<'passed' | 'failed' | 'errored' | 'skipped'>) =>
      mergeRuns(
        mergeInputs(
          ...verdicts.map((v, i) => run([scenario('s', { verdict: v, reason: `${v} here`, checks: [] })], `r${i}`)),
        ),
        'm',
      ).scenarios[0]!;
    expect(merge('passed', 'failed', 'errored')).toMatchObject({ verdict: 'failed', reason: 'run r1: failed here' });
    expect(merge('passed', 'errored')).toMatchObject({ verdict: 'errored', reason: 'run r1: errored here' });
    expect(merge('skipped', 'passed').verdict).toBe('passed');
    expect(merge('skipped', 'skipped').verdict).toBe('skipped');
    const overall = mergeRuns(
      mergeInputs(run([scenario('s')], 'r0'), run([scenario('s', { verdict: 'failed' })], 'r1')),
      'm',
    );
    expect(overall.verdict).toBe('failed');
  });

  it('lines checks up by name and occurrence: ok only if ok everywhere, details naming the runs', () => {
    const a = run(
      [
        scenario('s', {
          checks: [
            { name: 'one accepted', ok: true, detail: '1' },
            { name: 'probe', ok: true },
            { name: 'probe', ok: true },
          ],
        }),
      ],
      'a',
    );
    const b = run(
      [
        scenario('s', {
          verdict: 'failed',
          checks: [
            { name: 'one accepted', ok: false, detail: '2' },
            { name: 'probe', ok: true },
            { name: 'probe', ok: false, detail: 'slow' },
          ],
        }),
      ],
      'b',
    );
    expect(mergeRuns(mergeInputs(a, b), 'm').scenarios[0]!.checks).toEqual([
      { name: 'one accepted', ok: false, detail: 'run a: 1; run b: FAILED 2' },
      { name: 'probe', ok: true },
      { name: 'probe', ok: false, detail: 'run b: FAILED slow' },
    ]);
  });

  it('keeps scenarios found in only some runs, in order of first appearance', () => {
    const merged = mergeRuns(
      mergeInputs(run([scenario('x'), scenario('y')], 'a'), run([scenario('z'), scenario('x')], 'b')),
      'm',
    );
    expect(merged.scenarios.map((s) => s.name)).toEqual(['x', 'y', 'z']);
  });

  it('refuses an unreadable histogram as a user error naming it', () => {
    const broken = run([scenario('s', { latencies: { l: [1, 2] } })], 'bad');
    broken.scenarios[0]!.metrics.l!.hdr = 'not-a-histogram';
    expect(() => mergeRuns(mergeInputs(run([scenario('s', { latencies: { l: [3] } })], 'ok'), broken), 'm')).toThrow(
      UserError,
    );
    expect(() => mergeRuns(mergeInputs(run([scenario('s', { latencies: { l: [3] } })], 'ok'), broken), 'm')).toThrow(
      'metric s/l of run bad has an unreadable hdr histogram',
    );
  });
});

describe('mergeRuns timelines and series', () => {
  // Samples as (ms since start, µs): worker a for 5 s, worker b for 30 s (its buckets widen to 400 ms).
  const at = (n: number, spanMs: number, seed: number) =>
    samples(n, 0, spanMs, seed).map((t, i) => [t, samples(n, 100, 90_000, seed + 1)[i]!] as const);
  const a = at(300, 5_000, 41);
  const b = at(900, 30_000, 43);
  const timelineOf = (points: ReadonlyArray<readonly [number, number]>) => {
    const timeline = new LatencyTimeline(0);
    for (const [t, us] of points) timeline.record('resume_latency', us, t);
    return timeline.toRecord()!;
  };

  it('re-cuts the buckets to the widest width: count, min and max as of the combined data, means within 1 µs', () => {
    const runA = run([{ ...scenario('s'), timeline: timelineOf(a) }], 'a');
    const runB = run([{ ...scenario('s'), timeline: timelineOf(b) }], 'b');
    expect([runA.scenarios[0]!.timeline!.bucketMs, runB.scenarios[0]!.timeline!.bucketMs]).toEqual([100, 400]);
    const merged = mergeRuns(mergeInputs(runA, runB), 'm').scenarios[0]!.timeline!;
    const combined = timelineOf([...a, ...b]);
    expect(merged.bucketMs).toBe(combined.bucketMs);
    // Percentiles do not add up as numbers: a bucket both runs filled has none; one a single bucket
    // filled keeps its own, which are then those of the combined data.
    const exact = ({ mean: _m, p50: _p, p99: _q, ...rest }: (typeof merged.points)[number]) => rest;
    expect(merged.points.map(exact)).toEqual(combined.points.map(exact));
    merged.points.forEach((p, i) => expect(Math.abs(p.mean - combined.points[i]!.mean)).toBeLessThanOrEqual(1));
    const kept = merged.points.filter((p) => p.p50 !== undefined);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(merged.points.length);
    for (const p of kept) {
      const same = combined.points.find((c) => c.t === p.t && c.metric === p.metric)!;
      expect([p.p50, p.p99]).toEqual([same.p50, same.p99]);
    }
  });

  it('keeps each run’s curve, named after its run when several have it, and the first run’s fault events', () => {
    const curve = (y: number) => [
      { x: 10, y },
      { x: 20, y: y * 2 },
    ];
    const runA = run(
      [
        {
          ...scenario('cap'),
          series: { p95_ms_vs_rate_per_s: curve(1) },
          faultEvents: [{ t: 5, action: 'add' as const, target: 'latency_downstream' }],
        },
      ],
      'a',
    );
    const runB = run([{ ...scenario('cap'), series: { p95_ms_vs_rate_per_s: curve(3), only_b_vs_x: curve(7) } }], 'b');
    const merged = mergeRuns(mergeInputs(runA, runB), 'm').scenarios[0]!;
    expect(merged.series).toEqual({
      'a: p95_ms_vs_rate_per_s': curve(1),
      'b: p95_ms_vs_rate_per_s': curve(3),
      only_b_vs_x: curve(7),
    });
    expect(merged.faultEvents).toEqual(runA.scenarios[0]!.faultEvents);
    expect(mergeRuns(mergeInputs(run([scenario('plain')])), 'm').scenarios[0]).not.toHaveProperty('series');
  });
});
