// The latency timeline stays bounded and exact when buckets merge; the percentile curve walks the
// nines up to what the count can resolve; fault events become the intervals the report shades.
import { JsHistogram } from 'hdr-histogram-js';
import { describe, expect, it, vi } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { LatencyTimeline } from '../rig/metrics/latencyTimeline.ts';
import { ninesOf } from '../rig/report/html/charts/scenarioCharts.ts';
import { faultIntervals } from '../rig/report/html/charts/timeOverlay.ts';

describe('LatencyTimeline', () => {
  it('buckets values by time with exact count, mean, min and max, and p50 and p99', () => {
    const t = new LatencyTimeline(1000);
    t.record('a', 10, 1000);
    t.record('a', 30, 1099);
    t.record('a', 5, 1100);
    t.record('b', 7, 1050);
    expect(t.toRecord()).toEqual({
      bucketMs: 100,
      points: [
        { t: 0, metric: 'a', count: 2, mean: 20, min: 10, max: 30, p50: 10, p99: 30 },
        { t: 100, metric: 'a', count: 1, mean: 5, min: 5, max: 5, p50: 5, p99: 5 },
        { t: 0, metric: 'b', count: 1, mean: 7, min: 7, max: 7, p50: 7, p99: 7 },
      ],
    });
  });

  it('widens its buckets instead of growing past the bound, keeping totals exact', () => {
    const t = new LatencyTimeline(0, 10);
    let sum = 0;
    for (let ms = 0; ms < 60_000; ms += 7) {
      t.record('m', ms % 1000, ms);
      sum += ms % 1000;
    }
    const record = t.toRecord()!;
    expect(record.points.length).toBeLessThanOrEqual(10);
    expect(record.bucketMs).toBe(6400);
    expect(record.points.reduce((n, p) => n + p.count, 0)).toBe(Math.ceil(60_000 / 7));
    const total = record.points.reduce((s, p) => s + p.mean * p.count, 0);
    expect(Math.abs(total - sum) / sum).toBeLessThan(0.001);
    expect(Math.max(...record.points.map((p) => p.max))).toBe(999);
    expect(record.points.map((p) => p.t)).toEqual([...record.points.map((p) => p.t)].sort((a, b) => a - b));
  });

  it("keeps each bucket's p50 and p99 within 1 % of the exact ones when buckets merge", () => {
    const t = new LatencyTimeline(0, 4);
    const values = new Map<number, number[]>();
    // 1000 values per 100 ms over 1.6 s: widened twice, to 400 ms buckets of 4000 values each.
    for (let i = 0; i < 16_000; i++) {
      const at = i / 10;
      const us = 1000 + ((i * 7919) % 9000) + (i % 100 === 0 ? 500_000 : 0);
      t.record('m', us, at);
      const b = Math.floor(at / 400);
      if (!values.has(b)) values.set(b, []);
      values.get(b)!.push(us);
    }
    const record = t.toRecord()!;
    expect(record.bucketMs).toBe(400);
    for (const p of record.points) {
      const sorted = values.get(p.t / 400)!.sort((a, b) => a - b);
      const exact = (q: number) => sorted[Math.ceil((q / 100) * sorted.length) - 1]!;
      expect(Math.abs(p.p50! - exact(50)) / exact(50)).toBeLessThan(0.01);
      expect(Math.abs(p.p99! - exact(99)) / exact(99)).toBeLessThan(0.01);
    }
  });

  it('spreads the merges of a widening over the records that follow: one at most per 5 ms', () => {
    const t = new LatencyTimeline(0, 8);
    const add = vi.spyOn(JsHistogram.prototype, 'add');
    try {
      let most = 0;
      const mergedAt: number[] = [];
      // Three metrics, 20 values per 100 ms bucket, over 4 s: widened three times.
      for (let i = 0; i < 2400; i++) {
        const before = add.mock.calls.length;
        const at = i * (4000 / 2400);
        t.record(`m${i % 3}`, 100 + (i % 50), at);
        const merges = add.mock.calls.length - before;
        most = Math.max(most, merges);
        if (merges > 0) mergedAt.push(at);
      }
      expect(most).toBe(1);
      expect(mergedAt.length).toBeGreaterThan(0);
      expect(Math.min(...mergedAt.slice(1).map((at, i) => at - mergedAt[i]!))).toBeGreaterThanOrEqual(5);
      expect(t.toRecord()!.bucketMs).toBe(800);
    } finally {
      add.mockRestore();
    }
  });

  it('keeps every bucket exact when a widening comes before the last one is folded in', () => {
    // 20 metrics fill 4 buckets each; then single records widen it three times, each finding the
    // buckets the previous widening set aside all but folded in.
    const t = new LatencyTimeline(0, 4);
    const expected = new Map<string, { count: number; sum: number; min: number; max: number }>();
    const record = (metric: string, us: number, at: number) => {
      t.record(metric, us, at);
      const key = `${metric}@${Math.floor(at / 800) * 800}`;
      const e = expected.get(key) ?? { count: 0, sum: 0, min: us, max: us };
      expected.set(key, { count: e.count + 1, sum: e.sum + us, min: Math.min(e.min, us), max: Math.max(e.max, us) });
    };
    for (let at = 0; at < 400; at += 10) for (let m = 0; m < 20; m++) record(`m${m}`, 10 + ((at + m) % 37), at);
    for (const at of [400, 800, 1600]) record('m0', 1000 + at, at);
    const timeline = t.toRecord()!;
    expect(timeline.bucketMs).toBe(800);
    const got = new Map(timeline.points.map((p) => [`${p.metric}@${p.t}`, p]));
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, e] of expected) {
      const p = got.get(key)!;
      expect({ count: p.count, mean: p.mean, min: p.min, max: p.max }).toEqual({
        count: e.count,
        mean: Math.round(e.sum / e.count),
        min: e.min,
        max: e.max,
      });
    }
  });

  it('is absent when nothing was recorded', () => {
    expect(new LatencyTimeline(0).toRecord()).toBeUndefined();
  });
});

describe('LatencyHistogram.percentileCurve', () => {
  it('rises monotonically to about the maximum, as deep as the count resolves', () => {
    const h = new LatencyHistogram();
    for (let i = 1; i <= 1000; i++) h.recordMicros(i * 100);
    const curve = h.percentileCurve();
    expect(curve[0]).toEqual({ percentile: 0, us: expect.any(Number) });
    expect(curve[0].us).toBeLessThanOrEqual(200);
    for (let i = 1; i < curve.length; i++) expect(curve[i].us).toBeGreaterThanOrEqual(curve[i - 1].us);
    const last = curve[curve.length - 1];
    expect(ninesOf(last.percentile)).toBeCloseTo(3, 5);
    expect(Math.abs(last.us - 100_000) / 100_000).toBeLessThan(0.002);
    expect(new LatencyHistogram().percentileCurve()).toEqual([]);
  });

  it('survives encode/decode (the report reads it back from results.json)', () => {
    const h = new LatencyHistogram();
    for (let i = 1; i <= 500; i++) h.recordMicros(i * 7);
    expect(LatencyHistogram.decode(h.encode()).percentileCurve()).toEqual(h.percentileCurve());
  });
});

describe('faultIntervals', () => {
  it('pairs adds with removes, ends what a reset or the scenario ends, and keeps restarts as instants', () => {
    const { intervals, restarts } = faultIntervals(
      [
        { t: 10, action: 'add', target: 'lat', detail: 'latency downstream latency=100' },
        { t: 20, action: 'disable', target: 'proxy' },
        { t: 30, action: 'enable', target: 'proxy' },
        { t: 40, action: 'remove', target: 'lat' },
        { t: 50, action: 'add', target: 'rst' },
        { t: 60, action: 'restart', target: 'agent' },
        { t: 70, action: 'reset', target: 'proxy' },
        { t: 80, action: 'add', target: 'slow' },
      ],
      100,
    );
    expect(intervals.map((i) => [i.target, i.t0, i.t1])).toEqual([
      ['lat', 10, 40],
      ['proxy disabled', 20, 30],
      ['rst', 50, 70],
      ['slow', 80, 100],
    ]);
    expect(restarts.map((r) => r.t)).toEqual([60]);
  });
});
