// The open model on worker threads against a tiny A2A target in its own process: every arrival of
// the schedule runs once, in one of the workers, numbered as the schedule numbers it; the caller's
// observer, histograms and traffic observer hear every one; an abort stops every worker; a worker
// that crashes fails the run with a message that names the rig, not the agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleTotals } from '../rig/metrics/scheduleTruth.ts';
import { describeAgent, type AgentDescription } from '../rig/client/agentDiscovery.ts';
import type { ExchangeObserver } from '../rig/client/exchangeObserver.ts';
import { startJsonLineChild, type JsonLineChild } from '../rig/engine/environment/jsonLineChild.ts';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import { LoadWorkerPool } from '../rig/load/workers/workerPool.ts';
import { mixSpec } from '../bench/workerMix.ts';

let target: JsonLineChild<number>;
let agent: AgentDescription;

beforeAll(async () => {
  target = await startJsonLineChild<number>(
    process.execPath,
    [new URL('../bench/trivialA2ATarget.mjs', import.meta.url).pathname],
    { name: 'the trivial target', timeoutMs: 10_000 },
  );
  const url = `http://127.0.0.1:${target.info}/`;
  const card = { url, protocolVersion: '0.3.0', supportedInterfaces: [{ url, protocolBinding: 'JSONRPC' }] };
  agent = describeAgent(url, `${url}.well-known/agent-card.json`, card, '1.0');
});
afterAll(() => target?.kill());

function operationsCounter(): { observer: ExchangeObserver; operations: Record<string, number> } {
  const operations: Record<string, number> = {};
  return {
    operations,
    observer: {
      exchange: (_method, _end, _ms, traffic) => {
        const op = traffic?.operation ?? '?';
        operations[op] = (operations[op] ?? 0) + 1;
      },
      answer: () => undefined,
    },
  };
}

// Generous bounds: on a busy box an iteration waits in the backlog rather than being dropped.
const bounds = { maxInFlight: 16, maxBacklog: 1_000, iterationTimeoutMs: 30_000, drainTimeoutMs: 30_000 };

describe('LoadWorkerPool', () => {
  // One pool for the first two runs: workers are kept from one run to the next.
  const pool = new LoadWorkerPool(2);
  afterAll(() => pool.close());

  it('runs every arrival once across 2 workers and feeds the caller everything', async () => {
    const due: number[] = [];
    let succeeded = 0;
    const latency = new LatencyHistogram();
    const traffic = operationsCounter();
    const result = await pool.run(
      {
        ...bounds,
        arrivals: constantArrivals(200, 500),
        latency,
        observer: { due: (at) => due.push(at), succeeded: () => succeeded++ },
      },
      { spec: mixSpec({ agent, connections: 2 }), sinks: { observer: traffic.observer } },
    );
    expect(result).toMatchObject({ scheduled: 100, started: 100, succeeded: 100, failed: 0, dropped: 0 });
    expect([due.length, succeeded, latency.count, result.latency.count]).toEqual([100, 100, 100, 100]);
    // Each thread's schedule truth crosses back and joins: every start's lag is in the one result.
    expect([scheduleTotals(result.schedule).started, result.schedule.startLag.count]).toEqual([100, 100]);
    // i mod 3 picks the operation: the schedule's numbering (34/33/33), not each worker's own
    // (17/17/16 twice), reached the iteration.
    expect(traffic.operations).toEqual({ SendMessage: 34, answer: 33, GetTask: 33 });
    // One origin for every worker: the intended times are the schedule's, on this thread's clock.
    const sorted = [...due].sort((a, b) => a - b);
    expect(sorted.at(-1)! - sorted[0]).toBeCloseTo(495, 0);
  });

  it('stops every worker when the signal aborts', async () => {
    const stop = new AbortController();
    const result = await pool.run(
      {
        ...bounds,
        arrivals: constantArrivals(50, 600_000),
        signal: stop.signal,
        observer: { due: () => undefined, succeeded: () => stop.abort() },
      },
      { spec: mixSpec({ agent, connections: 1 }), sinks: {} },
    );
    expect(result.aborted).toBe(true);
    expect(result.scheduled).toBeLessThan(30_000);
  });

  it('refuses a spec that cannot cross to a thread, and runs the next one', async () => {
    const spec = { ...mixSpec({ agent, connections: 1 }), args: { agent, connections: 1, oops: () => 1 } };
    const small = { ...bounds, arrivals: constantArrivals(20, 250) };
    await expect(pool.run(small, { spec, sinks: {} })).rejects.toThrow(/cannot be sent to a worker thread/);
    const next = await pool.run(small, { spec: mixSpec({ agent, connections: 1 }), sinks: {} });
    expect(next).toMatchObject({ scheduled: 5, succeeded: 5 });
  });

  it('fails the run, naming the rig, when a worker crashes', async () => {
    const pool = new LoadWorkerPool(2);
    const spec = {
      module: new URL('./support/crashingIteration.ts', import.meta.url).href,
      export: 'crashingIteration',
      args: {},
    };
    try {
      const run = pool.run({ ...bounds, arrivals: constantArrivals(20, 500) }, { spec, sinks: {} });
      await expect(run).rejects.toThrow(/load worker thread \d of 2 failed: .*planted crash/s);
      await expect(pool.run({ ...bounds, arrivals: constantArrivals(20, 500) }, { spec, sinks: {} })).rejects.toThrow(
        /failed/,
      );
    } finally {
      await pool.close();
    }
  });
});
