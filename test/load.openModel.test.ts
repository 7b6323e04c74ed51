// The open-model executor: it keeps its rate, and it charges a target's stall to latency. Against a
// local server that stalls every request for 500 ms once mid-run, latencies measured from the
// intended start include the stall for every iteration it delayed, while the same run measured from
// the actual start (what a generator that forgets the schedule reports) shows it for only the few
// requests that were in flight. Late, dropped, failed, timed-out and unfinished iterations are
// counted. No rate or lag on the wall clock is asserted: the box is shared and has two cores.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import { runOpenModel } from '../rig/load/openModelExecutor.ts';

const STALL_MS = 500;

/** Answers at once, except that the `stallAt`-th request starts a stall: every request until it ends is held. */
function stallingServer(
  stallAt: number,
): Promise<{ url: string; server: Server; stalledAt: () => number | undefined }> {
  let seen = 0;
  let stallUntil = 0;
  let stalledAt: number | undefined;
  const server = createServer((req, res) => {
    req.resume();
    const now = performance.now();
    if (++seen === stallAt) {
      stallUntil = now + STALL_MS;
      stalledAt = now;
    }
    const reply = () => res.end('ok');
    if (now < stallUntil) setTimeout(reply, stallUntil - now);
    else reply();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        server,
        stalledAt: () => stalledAt,
      }),
    ),
  );
}

describe('open-model executor', () => {
  it('keeps its rate: starts follow the schedule, not the iterations', async () => {
    // What the box cannot move: the intended times are the schedule, no start runs ahead of its own,
    // and every start later than lateAfterMs is counted late. How late is the box's (a busy CI box,
    // load 10 on 2 cores, gave 39 of 300), so no rate on the wall clock is asserted here.
    const starts: { intendedAt: number; startedAt: number }[] = [];
    const origin = performance.now();
    const result = await runOpenModel({
      origin,
      arrivals: constantArrivals(200, 1500),
      iteration: async ({ intendedAt, startedAt }) => {
        starts.push({ intendedAt, startedAt });
        await new Promise((r) => setTimeout(r, 20)); // slower than the interval: many overlap
      },
      maxInFlight: 100,
      iterationTimeoutMs: 5_000,
      drainTimeoutMs: 5_000,
    });
    expect(result).toMatchObject({
      scheduled: 300,
      started: 300,
      succeeded: 300,
      failed: 0,
      dropped: 0,
      unfinished: 0,
      aborted: false,
    });
    // 200/s from the origin: the k-th intended 5 k ms after it, whatever the iterations take.
    expect(starts.map((x, k) => Math.abs(x.intendedAt - origin - k * 5) < 1e-6)).toEqual(starts.map(() => true));
    expect(starts.filter((x) => x.startedAt < x.intendedAt)).toEqual([]);
    expect(result.late).toBe(starts.filter((x) => x.startedAt - x.intendedAt > 10).length);
    // A closed loop would wait for each 20 ms iteration; the open model starts the next on time.
    expect(result.peakInFlight).toBeGreaterThan(1);
    // Latency counts from the intended time, so nothing claims under the ~20 ms an iteration takes.
    expect(result.latency.percentileMs(50)).toBeGreaterThanOrEqual(19);
    expect(result.latency.count).toBe(300);
  });

  describe('against a target that stalls for 500 ms mid-run', () => {
    let target: Awaited<ReturnType<typeof stallingServer>>;
    let pool: Pool;

    beforeAll(async () => {
      target = await stallingServer(150);
      pool = new Pool(target.url, { connections: 2 });
    });
    afterAll(async () => {
      await pool?.close();
      await new Promise((r) => target?.server.close(r));
    });

    const get = async ({ signal }: { signal: AbortSignal }) => {
      const res = await pool.request({ path: '/', method: 'GET', signal });
      await res.body.text();
    };

    it('charges the stall to latency from the intended start, where the naive measurement hides it', async () => {
      // Two in flight, like a generator with two connections: what comes due during the stall waits.
      const result = await runOpenModel({
        arrivals: constantArrivals(200, 2000),
        iteration: get,
        maxInFlight: 2,
        maxBacklog: 1000,
        iterationTimeoutMs: 5_000,
        drainTimeoutMs: 5_000,
      });
      expect(target.stalledAt()).toBeDefined();
      expect(result).toMatchObject({
        scheduled: 400,
        started: 400,
        succeeded: 400,
        dropped: 0,
        failed: 0,
        unfinished: 0,
      });
      const fromIntended = { p90: result.latency.percentileMs(90), p99: result.latency.percentileMs(99) };
      const fromActual = {
        p90: result.serviceTime.percentileMs(90),
        p99: result.serviceTime.percentileMs(99),
        max: result.serviceTime.percentileMs(100),
      };
      // ~100 arrivals fall inside the stall, each delayed by what was left of it (500 ms down to 0).
      expect(fromIntended.p99, JSON.stringify({ fromIntended, fromActual })).toBeGreaterThanOrEqual(0.8 * STALL_MS);
      expect(fromIntended.p90).toBeGreaterThanOrEqual(0.3 * STALL_MS);
      // Measured from the actual start, only the two requests in flight saw it.
      expect(fromActual.max).toBeGreaterThanOrEqual(0.9 * STALL_MS);
      // Relative, not a bound: a busy machine lengthens both measurements of the same requests alike.
      expect(fromIntended.p99 - fromActual.p99, JSON.stringify({ fromIntended, fromActual })).toBeGreaterThan(
        0.5 * STALL_MS,
      );
      // Everything that waited for a slot started late.
      expect(result.late).toBeGreaterThanOrEqual(50);
      expect(result.maxStartLagMs).toBeGreaterThanOrEqual(0.8 * STALL_MS);
    });

    it('drops what comes due when every slot is busy and there is no backlog, and counts it', async () => {
      target = await (async () => {
        await new Promise((r) => target.server.close(r));
        await pool.close();
        const fresh = await stallingServer(100);
        pool = new Pool(fresh.url, { connections: 2 });
        return fresh;
      })();
      const result = await runOpenModel({
        arrivals: constantArrivals(200, 1500),
        iteration: get,
        maxInFlight: 2,
        iterationTimeoutMs: 5_000,
        drainTimeoutMs: 5_000,
      });
      expect(target.stalledAt()).toBeDefined();
      expect(result.scheduled).toBe(300);
      expect(result.dropped).toBeGreaterThanOrEqual(50);
      expect(result.started + result.dropped).toBe(300);
      expect(result.succeeded).toBe(result.started);
      expect(result.latency.count).toBe(result.succeeded);
    });
  });

  it('counts failures by kind, timeouts, and what is still running at the drain bound', async () => {
    const started = performance.now();
    const result = await runOpenModel({
      arrivals: constantArrivals(60, 200), // 12 arrivals
      iteration: ({ index, signal }) => {
        if (index % 3 === 0) return Promise.reject(Object.assign(new Error('no'), { kind: 'boom' }));
        if (index % 3 === 1)
          return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
        return new Promise(() => {}); // ignores its signal: only the drain bound ends it
      },
      maxInFlight: 50,
      iterationTimeoutMs: 100,
      drainTimeoutMs: 300,
    });
    expect(result).toMatchObject({
      scheduled: 12,
      started: 12,
      succeeded: 0,
      failed: 8,
      failures: { boom: 4, timeout: 4 },
      unfinished: 4,
      dropped: 0,
    });
    expect(result.firstFailure).toBe('boom: no');
    expect(result.latency.count).toBe(0);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("stamps intended times from the caller's origin when it gives one", async () => {
    // A caller that cuts its schedule by its own clock (mixedRun) must see intended times on that clock.
    const origin = performance.now() - 1_000;
    const intended: number[] = [];
    await runOpenModel({
      arrivals: [
        { atMs: 1_000, step: 0 },
        { atMs: 1_001, step: 0 },
      ],
      iteration: async ({ intendedAt }) => void intended.push(intendedAt),
      maxInFlight: 2,
      iterationTimeoutMs: 1_000,
      drainTimeoutMs: 1_000,
      origin,
    });
    expect(intended).toEqual([origin + 1_000, origin + 1_001]);
  });

  it('stops when aborted, aborting what runs', async () => {
    const controller = new AbortController();
    let aborted = 0;
    setTimeout(() => controller.abort(), 300);
    const result = await runOpenModel({
      arrivals: constantArrivals(100, 10_000),
      iteration: ({ signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted++;
            reject(new Error('aborted'));
          }),
        ),
      maxInFlight: 1000,
      iterationTimeoutMs: 60_000,
      drainTimeoutMs: 2_000,
      signal: controller.signal,
    });
    expect(result.aborted).toBe(true);
    expect(result.scheduled).toBeGreaterThan(10);
    expect(result.scheduled).toBeLessThan(200);
    expect(aborted).toBe(result.started);
    expect(result.elapsedMs).toBeLessThan(3_000);
  });
  it('reports the most iterations in flight at once: the bound when it was reached', async () => {
    // Five arrivals due at once: three start in the pump's one batch, two wait for a slot.
    const result = await runOpenModel({
      arrivals: Array.from({ length: 5 }, () => ({ atMs: 0, step: 0 })),
      iteration: () => Promise.resolve(),
      maxInFlight: 3,
      maxBacklog: 10,
      iterationTimeoutMs: 1_000,
      drainTimeoutMs: 1_000,
    });
    expect(result).toMatchObject({ succeeded: 5, dropped: 0, peakInFlight: 3 });
  });
});
