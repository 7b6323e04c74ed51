// A shard set's capacity is judged on the union: a step that each worker's share passes can fail
// on the whole, the curve's counts are the sums, and the search stops where a worker stopped.
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { recomputeCapacity } from '../rig/report/merge/shardCapacity.ts';
import type { ScenarioResult, SeriesPoint } from '../rig/results/runResult.ts';

const SERIES = 'round_trip_p95_ms_vs_rate_per_s';
const params = { sloP95Ms: 100, sloMaxErrorPct: 1, sloMaxDroppedPct: 1 };
const CHECK = 'a sustainable rate exists under the SLO (p95 ≤ 100 ms, errors ≤ 1 %, dropped ≤ 1 %)';

function histogram(values: number[]): LatencyHistogram {
  const h = new LatencyHistogram();
  for (const v of values) h.recordMs(v);
  return h;
}
const point = (x: number, arrivals: number, errors = 0): SeriesPoint => ({
  x,
  y: 0,
  arrivals,
  errors,
  dropped: 0,
  late: 0,
  achieved_per_s: arrivals / 2,
});
function part(points: SeriesPoint[]): ScenarioResult {
  return { name: 'capacity', params, series: { [SERIES]: points }, checks: [], metrics: {}, counters: {} } as never;
}
function merged(latencies: Record<number, number[]>): ScenarioResult {
  const metrics = Object.fromEntries(
    Object.entries(latencies).map(([rate, values]) => {
      const h = histogram(values);
      return [`round_trip{rate=${rate}}`, { ...h.summary(), hdr: h.encode() }];
    }),
  );
  return {
    name: 'capacity',
    verdict: 'passed',
    params,
    metrics,
    counters: { capacity_per_s: 20 },
    checks: [{ name: CHECK, ok: true, detail: 'from a worker' }],
    series: { [`r-shard0: ${SERIES}`]: [], [`r-shard1: ${SERIES}`]: [] },
  } as never;
}

describe('recomputeCapacity', () => {
  it('sums the steps, takes p95 from the merged histogram, and finds the capacity of the whole', () => {
    // 10/s holds; at 20/s 10 of 40 round trips take 500 ms: p95 breaks on the union.
    const result = recomputeCapacity(
      merged({ 10: Array(20).fill(10), 20: [...Array(30).fill(10), ...Array(10).fill(500)] }),
      [part([point(10, 10), point(20, 20)]), part([point(10, 10), point(20, 20)])],
    );
    expect(result.series![SERIES]!.map((p) => [p.x, p.arrivals, p.sustainable, p.workers])).toEqual([
      [10, 20, true, 2],
      [20, 40, false, 2],
    ]);
    expect(Object.keys(result.series!)).toEqual([SERIES]);
    expect(result.counters).toMatchObject({ capacity_per_s: 10, slo_broken_at_per_s: 20, steps: 2 });
    expect(result.checks).toEqual([
      {
        name: CHECK,
        ok: true,
        detail: expect.stringMatching(
          /^judged again on the merged workers: capacity 10\/s \(between 10 and 20\/s, 100 % apart\).*at 20\/s: p95/,
        ),
      },
    ]);
    expect(result.verdict).toBe('passed');
  });

  it('fails when the union breaks at the first step, and counts errors over all arrivals', () => {
    const result = recomputeCapacity(merged({ 10: Array(18).fill(10) }), [
      part([point(10, 10, 2)]),
      part([point(10, 10, 0)]),
    ]);
    expect(result.verdict).toBe('failed');
    expect(result.checks[0]!.detail).toMatch(
      /no sustainable rate over 2 workers; the SLO broke at 10\/s: 2 of 20 failed/,
    );
  });

  it('stops where a worker stopped, never judging a step only some workers ran', () => {
    const result = recomputeCapacity(merged({ 10: Array(20).fill(10), 20: Array(20).fill(10) }), [
      part([point(10, 10), point(20, 20)]),
      part([point(10, 10)]),
    ]);
    expect(result.counters.capacity_per_s).toBe(10);
    expect(result.checks[0]!.detail).toMatch(/left out, not every worker ran 20\/s/);
  });

  it('judges by rate, leaving out the probes only some workers ran', () => {
    // Both ramped 10, 20 (broke), and bisected on their own shares: one probed 15, the other 14.
    const result = recomputeCapacity(
      merged({ 10: Array(20).fill(10), 14: Array(10).fill(10), 15: Array(10).fill(10), 20: Array(40).fill(500) }),
      [part([point(10, 10), point(20, 20), point(15, 15)]), part([point(10, 10), point(20, 20), point(14, 14)])],
    );
    expect(result.series![SERIES]!.map((p) => [p.x, p.sustainable])).toEqual([
      [10, true],
      [20, false],
    ]);
    expect(result.counters).toMatchObject({ capacity_per_s: 10, slo_broken_at_per_s: 20, capacity_rig_limited: 0 });
    expect(result.checks[0]!.detail).toMatch(/left out, not every worker ran 14, 15\/s/);
  });

  it('a step broken while a worker’s load generator was saturated is the rig’s limit: not judged', () => {
    const saturated = { ...point(20, 20), rig_saturated: 'the load generator was saturated: rig CPU 97 % of a core' };
    const result = recomputeCapacity(merged({ 10: Array(20).fill(10), 20: Array(40).fill(500) }), [
      part([point(10, 10), saturated]),
      part([point(10, 10), point(20, 20)]),
    ]);
    expect(result.counters).toMatchObject({ capacity_per_s: 10, capacity_rig_limited: 1 });
    expect(result.verdict).toBe('passed');
    expect(result.notJudged?.capacity_per_s).toMatch(
      /capacity ≥ 10\/s \(p95 10\.0 ms at 10\/s\): the load generator was the limit at 20\/s \(a worker's/,
    );
    expect(result.series![SERIES]!.at(-1)).toMatchObject({ x: 20, sustainable: false, limit: 'rig' });
  });
});
