// Merging runs' traffic, log lines and stacks: operations added exactly, the points re-cut to the
// widest width as one recorder of all the traffic would, the most in flight at once; each run's log
// lines in turn, prefixed with the run; the errored run's stack.
import { describe, expect, it } from 'vitest';
import { TrafficRecorder } from '../rig/metrics/trafficRecorder.ts';
import { mergeRuns } from '../rig/report/merge/mergeRuns.ts';
import { LOG_LINES_KEPT, type RunResult } from '../rig/results/runResult.ts';
import { mergeInputs, run, samples, scenario } from './support/runResultFixture.ts';

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
  const merged = mergeRuns(mergeInputs(runA, runB), 'm').scenarios[0]!.traffic!;
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
    expect(mergeRuns(mergeInputs(runA, run([scenario('s')], 'b')), 'm').scenarios[0]!.traffic).toEqual(
      runA.scenarios[0]!.traffic,
    );
    expect(
      mergeRuns(mergeInputs(run([scenario('s')], 'a'), run([scenario('s')], 'b')), 'm').scenarios[0],
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
    const small = mergeRuns(mergeInputs(logged('a', 2), logged('b', 1)), 'm').scenarios[0]!;
    expect(small.log).toEqual([
      { t: 0, line: 'a: line 0' },
      { t: 1, line: 'a: line 1' },
      { t: 0, line: 'b: line 0' },
    ]);
    expect(small).not.toHaveProperty('logDropped');
    const big = mergeRuns(mergeInputs(logged('a', LOG_LINES_KEPT, 7), logged('b', 300)), 'm').scenarios[0]!;
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
    const merged = mergeRuns(mergeInputs(run([scenario('s')], 'a'), broke), 'm').scenarios[0]!;
    expect(merged.verdict).toBe('errored');
    expect(merged.stack).toBe('at run (/x/s.ts:3:9)');
    const failed = run([scenario('s', { verdict: 'failed', reason: 'check' })], 'c');
    expect(mergeRuns(mergeInputs(failed, broke), 'm').scenarios[0]).not.toHaveProperty('stack');
  });
});
