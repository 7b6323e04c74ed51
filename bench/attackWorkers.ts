// Issue 25, item 1 for the attacks: what the generator's CPU costs per hostile request, and the
// attack rate it reaches, with a burst on the main thread (`--workers 1`) and on 2 load worker
// threads (rig/engine/dos/attackThreads.ts), against the reference agent in its own process
// (`a2a-rig agent`). The attack is malformed-json (one short request per connection, the agent
// answers 400 at once), so the generator's own work is what is measured. Runs alternate one and two
// threads ATTEMPTS times; CPU is process.cpuUsage() (every thread of this process) over the burst,
// the pool's threads started and warmed (WARM_RUNS bursts of 300 on each side) before. Prints each
// run, then (last line) the rows.
// Run: npx tsx bench/attackWorkers.ts. Env: RATE (1000), REQUESTS (2000), ATTEMPTS (3), WARM_RUNS (3).
import { loadavg } from 'node:os';
import { ATTACKS } from '../rig/attack/attackRegistry.ts';
import { attackTarget } from '../rig/attack/attackTarget.ts';
import type { AttackOutcome, AttackSchedule } from '../rig/attack/attackTypes.ts';
import { attackOnThreads } from '../rig/engine/dos/attackThreads.ts';
import { LoadWorkerPool } from '../rig/load/workers/workerPool.ts';
import { startReferenceAgent } from './agentProcess.ts';
import { printRows } from './benchRows.ts';

const RATE = Number(process.env.RATE ?? 1000);
const REQUESTS = Number(process.env.REQUESTS ?? 2000);
const ATTEMPTS = Number(process.env.ATTEMPTS ?? 3);
const WARM_RUNS = Number(process.env.WARM_RUNS ?? 3);
const load = loadavg()[0];

const agent = await startReferenceAgent('the reference agent');
const target = attackTarget({ baseUrl: agent.url });
const pool = new LoadWorkerPool(2);

interface Burst {
  cpuUsPerRequest: number;
  rate: number;
  started: number;
  kinds: string;
}

async function burst(threads: 1 | 2, requests = REQUESTS): Promise<Burst> {
  const outcomes: AttackOutcome[] = [];
  const schedule: AttackSchedule = {
    ratePerSecond: RATE,
    maxRequests: requests,
    durationMs: (requests / RATE) * 1000 + 1000,
    signal: new AbortController().signal,
    onOutcome: (o) => outcomes.push(o),
  };
  const cpu = process.cpuUsage();
  const report =
    threads === 1
      ? await ATTACKS['malformed-json'].run(target, {}, schedule)
      : await attackOnThreads(pool, 'malformed-json', {}, target, schedule);
  const used = process.cpuUsage(cpu);
  const starts = outcomes.map((o) => o.startedAt);
  const spanMs = Math.max(...starts) - Math.min(...starts);
  const counts = new Map<string, number>();
  for (const o of outcomes) counts.set(o.kind, (counts.get(o.kind) ?? 0) + 1);
  return {
    cpuUsPerRequest: (used.user + used.system) / report.started,
    rate: spanMs > 0 ? ((starts.length - 1) * 1000) / spanMs : 0,
    started: report.started,
    kinds: [...counts].map(([k, n]) => `${n} ${k}`).join(', '),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  // Each thread warms its own JIT with its share only (docs/benchmarks.md, the open model on threads).
  for (let i = 0; i < WARM_RUNS; i++) for (const threads of [1, 2] as const) await burst(threads, 300);
  const runs: Record<1 | 2, Burst[]> = { 1: [], 2: [] };
  for (let i = 0; i < ATTEMPTS; i++)
    for (const threads of i % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const)) {
      const b = await burst(threads);
      runs[threads].push(b);
      console.log(
        `${threads} thread(s): ${b.cpuUsPerRequest.toFixed(1)} µs CPU per request, ` +
          `${b.rate.toFixed(0)}/s reached of ${RATE}/s, ${b.started} started (${b.kinds})`,
      );
    }
  const detail = () =>
    `median of ${ATTEMPTS} alternated bursts of ${REQUESTS} at ${RATE}/s; load average ${load.toFixed(2)} at start`;
  const invalid = [...runs[1], ...runs[2]].some((b) => b.started !== REQUESTS)
    ? { invalid: 'a burst started fewer than REQUESTS' }
    : {};
  printRows([
    {
      id: 'attack.workers.cpuUsPerRequest.one',
      label: 'attack generator CPU per request, malformed-json, main thread',
      unit: 'µs',
      value: median(runs[1].map((b) => b.cpuUsPerRequest)),
      detail: detail(),
      ...invalid,
    },
    {
      id: 'attack.workers.cpuUsPerRequest.two',
      label: 'attack generator CPU per request, malformed-json, 2 worker threads',
      unit: 'µs',
      value: median(runs[2].map((b) => b.cpuUsPerRequest)),
      detail: detail(),
      ...invalid,
    },
    {
      id: 'attack.workers.rate.two',
      label: 'attack rate reached on 2 worker threads / asked',
      unit: 'x',
      value: median(runs[2].map((b) => b.rate)) / RATE,
      detail: `main thread: ${(median(runs[1].map((b) => b.rate)) / RATE).toFixed(3)}x; ${detail()}`,
      ...invalid,
    },
  ]);
} finally {
  await pool.close();
  await agent.stop();
}
