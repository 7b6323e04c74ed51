// The directory barrier: three workers (here three calls in one process, as three processes would
// through a shared volume) wait for each other and agree on one start; a missing worker times the
// others out naming it; a worker of another run or a reused run id is refused.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { meetInDirectory, parseStartAt, startAt } from '../rig/engine/environment/startBarrier.ts';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-barrier-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const signal = new AbortController().signal;

describe('meetInDirectory', () => {
  it('starts all workers together, only once the last has arrived, and measures each one clock offset', async () => {
    const dir = fresh();
    const meet = (index: number) =>
      meetInDirectory({ dir, runId: 'r1', index, count: 3, timeoutMs: 10_000, signal, leadMs: 300 });
    const first = [meet(0), meet(1)];
    await new Promise((resolve) => setTimeout(resolve, 400));
    const lastArrived = Date.now();
    const starts = await Promise.all([...first, meet(2)]);
    for (const s of starts) {
      expect(s.barrier).toBe('directory');
      expect(s.plannedStartEpochMs).toBeGreaterThanOrEqual(lastArrived);
      expect(s.startedEpochMs).toBeGreaterThanOrEqual(s.plannedStartEpochMs);
      // One host, one kernel clock: the measured offset is within its own stated uncertainty.
      expect(Math.abs(s.clockOffsetMs!)).toBeLessThanOrEqual(s.clockOffsetUncertaintyMs!);
    }
    const planned = starts.map((s) => s.plannedStartEpochMs);
    expect(Math.max(...planned) - Math.min(...planned)).toBeLessThanOrEqual(
      2 * Math.max(...starts.map((s) => s.clockOffsetUncertaintyMs!)),
    );
  });

  it('times out naming the worker that never came', async () => {
    const dir = fresh();
    const meet = (index: number) => meetInDirectory({ dir, runId: 'r2', index, count: 3, timeoutMs: 300, signal });
    const results = await Promise.allSettled([meet(0), meet(2)]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/worker\(s\) 1 of 3 never arrived/);
    }
  });

  it('refuses a worker of another run or size, and a run id used before', async () => {
    const dir = fresh();
    writeFileSync(
      join(dir, 'arrived-1.json'),
      JSON.stringify({ index: 1, count: 2, runId: 'other', host: 'h', pid: 1, localEpochMs: 0, clockOffsetMs: 0 }),
    );
    await expect(meetInDirectory({ dir, runId: 'r3', index: 0, count: 3, timeoutMs: 1000, signal })).rejects.toThrow(
      /worker 1 of 2 of run other, not of 3 workers of run r3/,
    );
    await expect(meetInDirectory({ dir, runId: 'r3', index: 0, count: 3, timeoutMs: 1000, signal })).rejects.toThrow(
      /worker 0 already arrived there .* a run id is used for one run only/,
    );
  });

  it('ends the wait when the run is interrupted', async () => {
    const stop = new AbortController();
    const waiting = meetInDirectory({
      dir: fresh(),
      runId: 'r4',
      index: 0,
      count: 2,
      timeoutMs: 10_000,
      signal: stop.signal,
    });
    stop.abort();
    await expect(waiting).rejects.toThrow(/interrupted at the start barrier/);
  });
});

describe('--start-at', () => {
  it('waits for an absolute time and refuses one without a zone or a day away', async () => {
    const at = Date.now() + 150;
    const s = await startAt(at, signal);
    expect(s.startedEpochMs).toBeGreaterThanOrEqual(at);
    expect(s.clockOffsetMs).toBeUndefined();
    expect(parseStartAt('2026-12-02T10:00:00Z', Date.parse('2026-12-02T09:00:00Z'))).toBe(
      Date.parse('2026-12-02T10:00:00Z'),
    );
    expect(() => parseStartAt('2026-12-02T10:00:00')).toThrow(/time zone/);
    expect(() => parseStartAt('tomorrow Z')).toThrow(/not an ISO 8601/);
    expect(() => parseStartAt('2026-12-04T10:00:00Z', Date.parse('2026-12-02T09:00:00Z'))).toThrow(/more than a day/);
  });
});
