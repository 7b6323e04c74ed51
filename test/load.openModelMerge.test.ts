// Results of one schedule run in parts merge exactly: counters summed, histograms added (a merged
// percentile is the percentile of all samples), times the largest; and the pool's shares of a
// schedule are the k-mod-N split, whose union is the schedule.
import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { steppedArrivals } from '../rig/load/arrivalSchedule.ts';
import { mergeOpenModelResults } from '../rig/load/openModelMerge.ts';
import type { OpenModelResult } from '../rig/load/openModelExecutor.ts';
import { ScheduleRecorder, scheduleTotals } from '../rig/metrics/scheduleTruth.ts';
import { materialiseShares, shareOfBound } from '../rig/load/workers/workerShares.ts';

/** A part's schedule truth: `seed` starts in step 0 (one late with a slot free), seed drops in step 1. */
function schedule(seed: number) {
  const recorder = new ScheduleRecorder(10);
  for (let i = 0; i < seed; i++) {
    recorder.due(0);
    recorder.started(0, i === 0 ? 12 : 1, false);
    recorder.due(1);
    recorder.dropped(1);
  }
  return recorder.finish();
}

function part(seed: number, latencies: number[]): OpenModelResult {
  const latency = new LatencyHistogram();
  const serviceTime = new LatencyHistogram();
  for (const ms of latencies) {
    latency.recordMs(ms);
    serviceTime.recordMs(ms / 2);
  }
  return {
    scheduled: 10 * seed,
    started: 9 * seed,
    succeeded: latencies.length,
    failed: seed,
    failures: seed % 2 ? { timeout: seed } : { timeout: 1, 'send refused': seed - 1 },
    firstFailure: seed === 1 ? undefined : `timeout: part ${seed}`,
    dropped: seed,
    late: 2 * seed,
    unfinished: seed - 1,
    maxStartLagMs: seed * 3.5,
    peakInFlight: 4 + seed,
    latency,
    serviceTime,
    elapsedMs: 1000 + seed,
    aborted: seed === 2,
    schedule: schedule(seed),
  };
}

describe('mergeOpenModelResults', () => {
  it('sums counters and failures, keeps the largest times, adds histograms exactly', () => {
    const samples = [1, 2, 3].map((seed) => Array.from({ length: 200 * seed }, (_, i) => ((i * 37 + seed) % 251) / 7));
    const merged = mergeOpenModelResults(samples.map((s, i) => part(i + 1, s)));
    const all = new LatencyHistogram();
    for (const ms of samples.flat()) all.recordMs(ms);
    expect(merged).toMatchObject({
      scheduled: 60,
      started: 54,
      succeeded: 1200,
      failed: 6,
      failures: { timeout: 5, 'send refused': 1 },
      firstFailure: 'timeout: part 2',
      dropped: 6,
      late: 12,
      unfinished: 3,
      maxStartLagMs: 10.5,
      peakInFlight: 18,
      elapsedMs: 1003,
      aborted: true,
    });
    for (const p of [0, 50, 90, 99, 99.9, 100]) expect(merged.latency.percentileUs(p)).toBe(all.percentileUs(p));
    expect(merged.latency.summary()).toEqual(all.summary());
    expect(merged.serviceTime.count).toBe(1200);
    // The schedule truths join per step (scheduleTruth.ts): 1 + 2 + 3 starts, drops, late starts.
    expect(scheduleTotals(merged.schedule)).toEqual({
      scheduled: 12,
      started: 6,
      dropped: 6,
      late: 3,
      lateWithFreeSlot: 3,
    });
    expect(merged.schedule.steps.map((s) => [s.step, s.started, s.dropped])).toEqual([
      [0, 6, 0],
      [1, 0, 6],
    ]);
    expect(merged.schedule.startLag.count).toBe(6);
  });

  it('refuses an empty list rather than invent a result', () => {
    expect(() => mergeOpenModelResults([])).toThrow(/at least one/);
  });
});

describe('materialiseShares', () => {
  it("gives worker i the arrivals k with k mod N = i; the shares' union is the schedule", () => {
    const steps = [
      { ratePerSec: 30, durationMs: 1000 },
      { ratePerSec: 47, durationMs: 1000 },
    ];
    const whole = [...steppedArrivals(steps)];
    const shares = materialiseShares(steppedArrivals(steps), 3);
    const rebuilt = whole.map((_, k) => {
      const share = shares[k % 3];
      const j = Math.floor(k / 3);
      return { atMs: share.atMs[j], step: share.steps[j] };
    });
    expect(rebuilt).toEqual(whole);
    expect(shares.reduce((n, s) => n + s.atMs.length, 0)).toBe(whole.length);
  });

  it("splits a bound so that the workers' parts add up to it exactly", () => {
    for (const [total, count] of [
      [512, 2],
      [7, 3],
      [3, 3],
      [0, 4],
      [130, 64],
    ]) {
      const parts = Array.from({ length: count }, (_, index) => shareOfBound(total, { index, count }));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
    }
  });
});
