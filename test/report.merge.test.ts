// Merging runs: the merged histogram is the histogram of all the raw samples (percentiles of the
// union, exactly), counters add up, the worst verdict wins, checks line up by name.
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { LatencyTimeline } from '../rig/metrics/latencyTimeline.ts';
import { TrafficRecorder } from '../rig/metrics/trafficRecorder.ts';
import { UserError } from '../rig/protocol/userError.ts';
import { mergeRuns } from '../rig/report/mergeRuns.ts';
import { cardDigest } from '../rig/results/runIdentity.ts';
import { htmlReport } from '../rig/report/htmlReport.ts';
import { LOG_LINES_KEPT, type RunResult } from '../rig/results/runResult.ts';
import { histogramOf, run, samples, scenario } from './support/runResultFixture.ts';

const machineA = samples(3_000, 800, 20_000, 21); // a fast worker
const machineB = samples(1_000, 30_000, 2_000_000, 22); // a slow one, with a long tail
const machineC = samples(10, 1, 5, 23); // a tiny one at the bottom of the range

function inputs(...runs: RunResult[]) {
  return runs.map((r, i) => ({ run: r, path: `/results/${i}/results.json` }));
}

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
  const merged = mergeRuns(inputs(a, b, c), 'merged-x');
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
    const ab = mergeRuns(inputs(a, b), 'ab');
    const abc = mergeRuns(inputs(ab, c), 'abc');
    const { hdr: _h1, ...once } = merged.scenarios[0]!.metrics.resume_latency!;
    const { hdr: _h2, ...twice } = abc.scenarios[0]!.metrics.resume_latency!;
    expect(twice).toEqual(once);
  });
});

describe('mergeRuns verdicts and checks', () => {
  it('takes the worst verdict (failed > errored > passed > skipped) with the reason of the run that gave it', () => {
    const merge = (...verdicts: Array<'passed' | 'failed' | 'errored' | 'skipped'>) =>
      mergeRuns(
        inputs(
          ...verdicts.map((v, i) => run([scenario('s', { verdict: v, reason: `${v} here`, checks: [] })], `r${i}`)),
        ),
        'm',
      ).scenarios[0]!;
    expect(merge('passed', 'failed', 'errored')).toMatchObject({ verdict: 'failed', reason: 'run r1: failed here' });
    expect(merge('passed', 'errored')).toMatchObject({ verdict: 'errored', reason: 'run r1: errored here' });
    expect(merge('skipped', 'passed').verdict).toBe('passed');
    expect(merge('skipped', 'skipped').verdict).toBe('skipped');
    const overall = mergeRuns(
      inputs(run([scenario('s')], 'r0'), run([scenario('s', { verdict: 'failed' })], 'r1')),
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
    expect(mergeRuns(inputs(a, b), 'm').scenarios[0]!.checks).toEqual([
      { name: 'one accepted', ok: false, detail: 'run a: 1; run b: FAILED 2' },
      { name: 'probe', ok: true },
      { name: 'probe', ok: false, detail: 'run b: FAILED slow' },
    ]);
  });

  it('keeps scenarios found in only some runs, in order of first appearance', () => {
    const merged = mergeRuns(
      inputs(run([scenario('x'), scenario('y')], 'a'), run([scenario('z'), scenario('x')], 'b')),
      'm',
    );
    expect(merged.scenarios.map((s) => s.name)).toEqual(['x', 'y', 'z']);
  });

  it('refuses an unreadable histogram as a user error naming it', () => {
    const broken = run([scenario('s', { latencies: { l: [1, 2] } })], 'bad');
    broken.scenarios[0]!.metrics.l!.hdr = 'not-a-histogram';
    expect(() => mergeRuns(inputs(run([scenario('s', { latencies: { l: [3] } })], 'ok'), broken), 'm')).toThrow(
      UserError,
    );
    expect(() => mergeRuns(inputs(run([scenario('s', { latencies: { l: [3] } })], 'ok'), broken), 'm')).toThrow(
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
    const merged = mergeRuns(inputs(runA, runB), 'm').scenarios[0]!.timeline!;
    const combined = timelineOf([...a, ...b]);
    expect(merged.bucketMs).toBe(combined.bucketMs);
    expect(merged.points.map(({ mean: _m, ...exact }) => exact)).toEqual(
      combined.points.map(({ mean: _m, ...exact }) => exact),
    );
    merged.points.forEach((p, i) => expect(Math.abs(p.mean - combined.points[i]!.mean)).toBeLessThanOrEqual(1));
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
    const merged = mergeRuns(inputs(runA, runB), 'm').scenarios[0]!;
    expect(merged.series).toEqual({
      'a: p95_ms_vs_rate_per_s': curve(1),
      'b: p95_ms_vs_rate_per_s': curve(3),
      only_b_vs_x: curve(7),
    });
    expect(merged.faultEvents).toEqual(runA.scenarios[0]!.faultEvents);
    expect(mergeRuns(inputs(run([scenario('plain')])), 'm').scenarios[0]).not.toHaveProperty('series');
  });
});

describe('mergeRuns traffic, log and stack', () => {
  // One worker's exchanges as (opened, ended ms, operation, outcome, bytes sent, received), and its
  // load's arrivals and successes.
  type Exchange = readonly [number, number, string, 'ok' | 'rpc_error' | 'failed', number, number];
  const OPS = ['SendMessage', 'answer', 'GetTask', 'SubscribeToTask'];
  const OUTCOMES = ['ok', 'ok', 'ok', 'rpc_error', 'failed'] as const;
  const worker = (
    n: number,
    spanMs: number,
    seed: number,
  ): { exchanges: Exchange[]; due: number[]; succeeded: number[] } => {
    const starts = samples(n, 0, spanMs, seed).sort((x, y) => x - y);
    const lengths = samples(n, 1, 400, seed + 1);
    const bytes = samples(n, 100, 5_000, seed + 2);
    const exchanges = starts.map(
      (t, i) =>
        [
          t,
          t + lengths[i]!,
          OPS[i % OPS.length]!,
          OUTCOMES[(i * 7 + seed) % OUTCOMES.length]!,
          bytes[i]!,
          bytes[(i + 1) % n]! * 2,
        ] as const,
    );
    return {
      exchanges,
      due: starts.filter((_, i) => i % 2 === 0),
      succeeded: starts.filter((_, i) => i % 3 === 0).map((t, i) => t + lengths[i]!),
    };
  };
  /** What one recorder (a worker, or one that saw every worker's traffic) records, on its own clock. */
  const recorded = (...workers: Array<ReturnType<typeof worker>>) => {
    let now = 0;
    const r = new TrafficRecorder(0, { now: () => now });
    const events: Array<[number, () => void]> = [];
    for (const w of workers) {
      for (const [from, to, operation, end, sent, received] of w.exchanges) {
        events.push([from, () => r.opening()]);
        events.push([to, () => r.exchange('m', end, to - from, { operation, sent, received })]);
      }
      for (const t of w.due) events.push([t, () => r.due(t)]);
      for (const t of w.succeeded) events.push([t, () => r.succeeded(t)]);
    }
    r.loadStarted();
    for (const [t, apply] of events.sort((x, y) => x[0] - y[0])) {
      now = t;
      apply();
    }
    r.loadEnded();
    return r.toRecord()!;
  };
  const a = worker(400, 5_000, 51);
  const b = worker(1_200, 30_000, 53);
  const runA = run([{ ...scenario('s'), traffic: recorded(a) }], 'a');
  const runB = run([{ ...scenario('s'), traffic: recorded(b) }], 'b');
  const merged = mergeRuns(inputs(runA, runB), 'm').scenarios[0]!.traffic!;
  const combined = recorded(a, b);

  it('adds operations exactly: counts and bytes summed, latency histograms added', () => {
    expect([runA.scenarios[0]!.traffic!.bucketMs, runB.scenarios[0]!.traffic!.bucketMs]).toEqual([100, 400]);
    expect(merged.operations.map(({ latency, ...counts }) => ({ ...counts, latency: latency.hdr }))).toEqual(
      combined.operations.map(({ latency, ...counts }) => ({ ...counts, latency: latency.hdr })),
    );
    expect(merged.operations.map((o) => o.latency.p99)).toEqual(combined.operations.map((o) => o.latency.p99));
    expect(merged.totals).toEqual(combined.totals);
    expect(merged.totals.requests).toBe(1_600);
  });

  it(
    're-cuts the points to the widest width: completed, errors, ' +
      'offered, achieved and in-flight as one recorder of all the traffic',
    () => {
      expect(merged.bucketMs).toBe(combined.bucketMs);
      const exact = (p: (typeof merged.points)[number]) => [p.t, p.completed, p.errors, p.offered, p.achieved];
      expect(merged.points.map(exact)).toEqual(combined.points.map(exact));
      merged.points.forEach((p, i) => expect(p.inFlight).toBeCloseTo(combined.points[i]!.inFlight, 2));
    },
  );

  it("the most in flight at once: the sum of each run's most, at least what really was", () => {
    const own = (r: RunResult, t: number, width: number) =>
      Math.max(
        0,
        ...r.scenarios[0]!.traffic!.points.filter((p) => p.t >= t && p.t < t + width).map((p) => p.inFlightMax),
      );
    merged.points.forEach((p, i) => {
      expect(p.inFlightMax).toBe(own(runA, p.t, merged.bucketMs) + own(runB, p.t, merged.bucketMs));
      expect(p.inFlightMax).toBeGreaterThanOrEqual(combined.points[i]!.inFlightMax);
    });
    expect(merged.points.some((p, i) => p.inFlightMax > combined.points[i]!.inFlightMax)).toBe(true);
  });

  it("keeps one run's traffic as it is; none when no run has any", () => {
    expect(mergeRuns(inputs(runA, run([scenario('s')], 'b')), 'm').scenarios[0]!.traffic).toEqual(
      runA.scenarios[0]!.traffic,
    );
    expect(
      mergeRuns(inputs(run([scenario('s')], 'a'), run([scenario('s')], 'b')), 'm').scenarios[0],
    ).not.toHaveProperty('traffic');
  });

  it("log: each run's lines in turn, prefixed with the run, cut like one scenario's", () => {
    const logged = (id: string, n: number, dropped = 0) =>
      run(
        [
          {
            ...scenario('s'),
            log: Array.from({ length: n }, (_, i) => ({ t: i, line: `line ${i}` })),
            ...(dropped ? { logDropped: dropped } : {}),
          },
        ],
        id,
      );
    const small = mergeRuns(inputs(logged('a', 2), logged('b', 1)), 'm').scenarios[0]!;
    expect(small.log).toEqual([
      { t: 0, line: 'a: line 0' },
      { t: 1, line: 'a: line 1' },
      { t: 0, line: 'b: line 0' },
    ]);
    expect(small).not.toHaveProperty('logDropped');
    const big = mergeRuns(inputs(logged('a', LOG_LINES_KEPT, 7), logged('b', 300)), 'm').scenarios[0]!;
    expect(big.log).toHaveLength(LOG_LINES_KEPT);
    expect(big.logDropped).toBe(7 + 300);
    expect(big.log![LOG_LINES_KEPT / 2 - 1]!.line).toBe(`a: line ${LOG_LINES_KEPT / 2 - 1}`);
    expect(big.log![LOG_LINES_KEPT / 2]!.line).toBe(`a: line ${LOG_LINES_KEPT / 2 + 300}`);
    expect(big.log!.at(-1)!.line).toBe('b: line 299');
  });

  it("stack: the errored run's", () => {
    const broke = run(
      [{ ...scenario('s', { verdict: 'errored', reason: 'boom' }), stack: 'at run (/x/s.ts:3:9)' }],
      'b',
    );
    const merged = mergeRuns(inputs(run([scenario('s')], 'a'), broke), 'm').scenarios[0]!;
    expect(merged.verdict).toBe('errored');
    expect(merged.stack).toBe('at run (/x/s.ts:3:9)');
    const failed = run([scenario('s', { verdict: 'failed', reason: 'check' })], 'c');
    expect(mergeRuns(inputs(failed, broke), 'm').scenarios[0]).not.toHaveProperty('stack');
  });
});

describe('mergeRuns refuses runs of different agents or rigs', () => {
  const load = () => [scenario('load', { latencies: { resume_latency: machineC }, counters: { answers: 10 } })];
  const withTarget = (runId: string, target: Partial<RunResult['target']>, rigVersion = '0.1.0') => {
    const r = run(load(), runId);
    return {
      ...r,
      rig: { ...r.rig, version: rigVersion },
      target: {
        ...r.target,
        agentName: 'agent',
        agentVersion: '1.0.0',
        generation: '1.0',
        cardDigest: 'sha256:aa',
        ...target,
      },
    };
  };

  it.each([
    [
      'target.agentVersion',
      { agentVersion: '1.1.0' },
      '0.1.0',
      '"1.0.0" in /results/0/results.json; "1.1.0" in /results/1/results.json',
    ],
    [
      'target.agentName',
      { agentName: 'other' },
      '0.1.0',
      '"agent" in /results/0/results.json; "other" in /results/1/results.json',
    ],
    [
      'target.generation',
      { generation: '0.3' },
      '0.1.0',
      '"1.0" in /results/0/results.json; "0.3" in /results/1/results.json',
    ],
    [
      'target.cardDigest',
      { cardDigest: 'sha256:bb' },
      '0.1.0',
      '"sha256:aa" in /results/0/results.json; "sha256:bb" in /results/1/results.json',
    ],
    [
      'target.agentFaults',
      { agentFaults: ['slow-resume'] },
      '0.1.0',
      '(none) in /results/0/results.json; "slow-resume" in /results/1/results.json',
    ],
    ['rig.version', {}, '0.2.0', '"0.1.0" in /results/0/results.json; "0.2.0" in /results/1/results.json'],
  ])('%s: one line naming the field, the values and the files', (field, target, rigVersion, values) => {
    const merge = () => mergeRuns(inputs(withTarget('a', {}), withTarget('b', target, rigVersion)), 'm');
    expect(merge).toThrow(UserError);
    expect(merge).toThrow(
      `cannot merge runs of different agents or rigs: ${field}: ${values}; pass --force to merge them anyway`,
    );
  });

  it('compares the URL of a --target, not the fresh port of an embedded agent', () => {
    expect(() =>
      mergeRuns(
        inputs(withTarget('a', { url: 'http://127.0.0.1:1' }), withTarget('b', { url: 'http://127.0.0.1:2' })),
        'm',
      ),
    ).not.toThrow();
    const url = (u: string) => withTarget(u, { kind: 'url', url: u });
    expect(() => mergeRuns(inputs(url('http://a:1'), url('http://b:1')), 'm')).toThrow(
      'target.url: "http://a:1" in /results/0/results.json; "http://b:1" in /results/1/results.json',
    );
  });

  it("merges when forced, recording what differed and each source's target and rig", () => {
    const merged = mergeRuns(
      inputs(withTarget('a', {}), withTarget('b', { agentVersion: '1.1.0', cardDigest: 'sha256:bb' })),
      'm',
      { force: true },
    );
    expect(merged.mergeForced).toEqual({
      differences: [
        'target.agentVersion: "1.0.0" in /results/0/results.json; "1.1.0" in /results/1/results.json',
        'target.cardDigest: "sha256:aa" in /results/0/results.json; "sha256:bb" in /results/1/results.json',
      ],
    });
    expect(merged.mergedFrom!.map((m) => [m.target?.agentVersion, m.rigVersion])).toEqual([
      ['1.0.0', '0.1.0'],
      ['1.1.0', '0.1.0'],
    ]);
    expect(htmlReport(merged)).toContain(
      '<dt>forced merge: runs differ</dt><dd>target.agentVersion: &quot;1.0.0&quot; in /results/0/results.json',
    );
    expect(mergeRuns(inputs(withTarget('a', {}), withTarget('b', {})), 'm')).not.toHaveProperty('mergeForced');
  });

  it("records the busiest source's load per core, for compare's overload guard", () => {
    const loaded = (id: string, loadPerCore: number) => ({
      ...withTarget(id, {}),
      rig: { ...withTarget(id, {}).rig, loadPerCore },
    });
    expect(mergeRuns(inputs(loaded('a', 0.3), loaded('b', 2.5)), 'm').rig.loadPerCore).toBe(2.5);
  });

  it("keeps the scenarios' declarations of what they record (compare reads them)", () => {
    const records = { latencies: ['resume_latency'], counters: { answers: 'tally' as const } };
    const part = (id: string) => run([scenario('load', { counters: { answers: 1 }, records })], id);
    expect(mergeRuns(inputs(part('a'), part('b')), 'm').scenarios[0]!.records).toEqual(records);
  });
});

describe('cardDigest', () => {
  const card = {
    name: 'agent',
    version: '1',
    url: 'http://127.0.0.1:1',
    supportedInterfaces: [{ url: 'http://127.0.0.1:1', protocolBinding: 'JSONRPC' }],
    capabilities: { extensions: [{ uri: 'x', required: false }] },
  };

  it('ignores where the agent listens and key order, and sees any other change', () => {
    const moved = {
      capabilities: card.capabilities,
      supportedInterfaces: [{ protocolBinding: 'JSONRPC', url: 'http://127.0.0.1:2' }],
      version: '1',
      name: 'agent',
      url: 'http://127.0.0.1:2',
    };
    expect(cardDigest(moved)).toBe(cardDigest(card));
    expect(cardDigest({ ...card, capabilities: { extensions: [{ uri: 'x', required: true }] } })).not.toBe(
      cardDigest(card),
    );
    expect(cardDigest(card)).toMatch(/^sha256:[0-9a-f]{16}$/);
  });
});
