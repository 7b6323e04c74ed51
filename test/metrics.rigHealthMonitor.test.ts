// The monitor of the rig's own load (rig/metrics/rigHealthMonitor.ts) on a fake clock, with a
// scripted machine and agent: one point per window, the agent's CPU only between readings of one
// process (a restart starts anew), an async reader (a scrape) read at the ends only, the open
// model's schedule lag added up, and the window sized so a long budget never yields over
// MAX_POINTS. The rig's own CPU is real (process.cpuUsage()), so only its presence is asserted.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MachineSample } from '../rig/metrics/machineLoad.ts';
import { MAX_POINTS, RigHealthMonitor, type AgentCpuReading } from '../rig/metrics/rigHealthMonitor.ts';
import { loadOf } from './support/scheduleTruthFixture.ts';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function scripted<T>(values: T[]): () => T {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

const MACHINE: MachineSample[] = [
  { runnable: 0, totalTicks: 0, stealTicks: 0 },
  { runnable: 1, totalTicks: 100, stealTicks: 5 },
  { runnable: 3, totalTicks: 200, stealTicks: 5 },
  { runnable: 2, totalTicks: 400, stealTicks: 25 },
];

describe('RigHealthMonitor', () => {
  it('one point per 1 s window; agent CPU across a restart only within one process', async () => {
    const agent = scripted<AgentCpuReading>([
      { process: '1', cpuSeconds: 0 },
      { process: '1', cpuSeconds: 0.5 },
      // A new process whose count happens to be higher: still no delta across the restart.
      { process: '2', cpuSeconds: 0.7 },
      { process: '2', cpuSeconds: 1 },
    ]);
    const monitor = new RigHealthMonitor({
      budgetMs: 10_000,
      machine: scripted(MACHINE),
      agent: { label: '/proc/1', read: agent },
      cores: 2,
    });
    await monitor.start();
    vi.advanceTimersByTime(2_000);
    monitor.recordSchedule(loadOf([{ lags: [...Array<number>(99).fill(1), 14.04] }]));
    monitor.recordSchedule(loadOf([{ lags: [3, 3, 3], waited: [12, 12], dropped: 4 }]));
    vi.advanceTimersByTime(1_000);
    const h = await monitor.stop();
    expect(h.durationMs).toBe(3_000);
    expect(h.cores).toBe(2);
    expect(h.points!.map((p) => [p.t, p.runnable, p.stealPct, p.agentCpuPct])).toEqual([
      [1000, 1, 5, 50],
      [2000, 3, 0, undefined],
      [3000, 2, 10, 30],
    ]);
    expect(h.machine).toEqual({ runnableMean: 2, runnableMax: 3, stealPct: 6.3 });
    expect(h.agentCpu).toEqual({ pctOfCore: 40, peakPctOfCore: 50, source: '/proc/1' });
    expect(h.schedule).toMatchObject({
      started: 105,
      late: 3,
      maxStartLagMs: 14,
      scheduled: 109,
      dropped_iterations: 4,
      lateWithFreeSlot: 1,
      schedule_lag: { count: 105, max: 14_040 },
      // One late start in 100 is no falling behind; the second load dropped starts: it fell behind there.
      behind: [{ load: 2, loads: 2, step: 0, steps: 1, dropped_iterations: 4, late: 2, lateWithFreeSlot: 0 }],
    });
    for (const p of h.points!) expect(p.rigCpuPct).toBeGreaterThanOrEqual(0);
    expect(h.rigCpu.peakPctOfCore).toBeGreaterThanOrEqual(h.rigCpu.pctOfCore);
    expect(h.eventLoopDelayMs.p99).toBeGreaterThanOrEqual(h.eventLoopDelayMs.p50);
  });

  it('a span judges its own stretch: run queue inside it and at its end, steal between its ends', async () => {
    const monitor = new RigHealthMonitor({
      budgetMs: 10_000,
      machine: scripted([...MACHINE, { runnable: 5, totalTicks: 500, stealTicks: 25 }]),
      cores: 2,
    });
    await monitor.start(); // MACHINE[0]
    vi.advanceTimersByTime(1_000); // window 1: MACHINE[1]
    monitor.recordSchedule(loadOf([{ lags: [1], dropped: 9 }])); // before the span: not its load
    const span = monitor.span(); // MACHINE[2] (its start)
    vi.advanceTimersByTime(1_000); // window 2: MACHINE[3], runnable 2
    monitor.recordSchedule(loadOf([{ lags: [1, 2, 40] }]));
    const h = span.end(); // its end: runnable 5, steal 20 of 300 ticks
    monitor.recordSchedule(loadOf([{ lags: [1], dropped: 7 }])); // after it: not its load either
    expect(h.schedule).toMatchObject({ started: 3, late: 1, lateWithFreeSlot: 1, dropped_iterations: 0 });
    expect(h.durationMs).toBe(1_000);
    expect(h.cores).toBe(2);
    expect(h.machine).toEqual({ runnableMean: 3.5, runnableMax: 5, stealPct: 6.7 });
    expect(h.rigCpu.pctOfCore).toBeGreaterThanOrEqual(0);
    await monitor.stop();
  });

  it("a span reads a sync agent reader at its ends: the agent's CPU over that stretch alone", async () => {
    const agent = scripted<AgentCpuReading>([
      { process: '1', cpuSeconds: 0 }, // monitor start
      { process: '1', cpuSeconds: 0.2 }, // window 1
      { process: '1', cpuSeconds: 0.3 }, // span start
      { process: '1', cpuSeconds: 0.9 }, // window 2
      { process: '1', cpuSeconds: 1.4 }, // window 3
      { process: '1', cpuSeconds: 1.5 }, // span end: 1.2 s over its 2 s
    ]);
    const monitor = new RigHealthMonitor({
      budgetMs: 10_000,
      machine: () => undefined,
      agent: { label: '/proc/7', read: agent },
    });
    await monitor.start();
    vi.advanceTimersByTime(1_000);
    const span = monitor.span();
    vi.advanceTimersByTime(2_000);
    expect(span.end().agentCpu).toEqual({ pctOfCore: 60, source: '/proc/7' });
    await monitor.stop();
  });

  it('a span over an agent restart, or with an async reader, has no agent CPU', async () => {
    const restarted = new RigHealthMonitor({
      budgetMs: 10_000,
      machine: () => undefined,
      agent: {
        label: '/proc/1',
        read: scripted<AgentCpuReading>([
          { process: '1', cpuSeconds: 0 },
          { process: '1', cpuSeconds: 0.5 },
          { process: '2', cpuSeconds: 0.9 },
        ]),
      },
    });
    await restarted.start();
    const span = restarted.span();
    vi.advanceTimersByTime(500);
    expect(span.end()).not.toHaveProperty('agentCpu');
    await restarted.stop();
    const scraped = new RigHealthMonitor({
      budgetMs: 10_000,
      machine: () => undefined,
      agent: { label: 'http://agent/metrics', read: async () => ({ process: 'a', cpuSeconds: 1 }) },
    });
    await scraped.start();
    const scrapedSpan = scraped.span();
    vi.advanceTimersByTime(500);
    expect(scrapedSpan.end()).not.toHaveProperty('agentCpu');
    await scraped.stop();
  });

  it('an async reader is read at the start and the end only: the mean, no peak', async () => {
    let reads = 0;
    const readings = [0, 1.5];
    const monitor = new RigHealthMonitor({
      budgetMs: 10_000,
      machine: () => undefined,
      agent: { label: 'http://agent/metrics', read: async () => ({ process: 'a', cpuSeconds: readings[reads++]! }) },
    });
    await monitor.start();
    vi.advanceTimersByTime(3_000);
    const h = await monitor.stop();
    expect(reads).toBe(2);
    expect(h.agentCpu).toEqual({ pctOfCore: 50, source: 'http://agent/metrics' });
    expect(h.points!.every((p) => p.agentCpuPct === undefined && p.runnable === undefined)).toBe(true);
    // Not Linux: no machine figures at all, never zeros.
    expect(h).not.toHaveProperty('machine');
    expect(h).not.toHaveProperty('schedule');
  });

  it('a long budget widens the window; a short last window is no point', async () => {
    const budgetMs = 3_600_000;
    const monitor = new RigHealthMonitor({ budgetMs, machine: () => undefined });
    await monitor.start();
    vi.advanceTimersByTime(budgetMs + 100);
    const h = await monitor.stop();
    expect(h.points!.length).toBe(MAX_POINTS);
    expect(h.points![0]!.t).toBe(budgetMs / MAX_POINTS);
  });
});
