// Issue 25, item 1: does the open model scale with worker threads? The same trivial target as
// bench/generator.ts (bench/trivialA2ATarget.mjs, its own process), the same send/answer/get mix
// with the rig's A2AClient (bench/workerMix.ts) and the same search for the sustainable rate
// (bench/rateSearch.ts; its scale here is one worker's saturated throughput, not autocannon's),
// run twice: with one worker (the main thread, as `run --workers 1`) and with two worker threads
// (rig/load/workers/, as `run --workers 2`), the same total connections and iterations in flight.
// The row is the ratio of the two rates; the box's cores, and how many were free when it started
// (cores − the 1-minute load average), are rows too: the goal assumes ≥ 2 free cores beside the
// target, and a box without them marks the ratio invalid rather than failed.
// Prints the steps, then (last line) the rows (bench/benchRows.ts).
// Run: npx tsx bench/generatorWorkers.ts.
// Env: CONNECTIONS (32), STEP_MS (3000), PROBE_RATE (20000), WORKERS (2), ATTEMPTS (3), WARM_RUNS (3).
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { EventHistory } from '../rig/client/eventHistory.ts';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { describeAgent } from '../rig/client/agentDiscovery.ts';
import { startJsonLineChild } from '../rig/engine/environment/jsonLineChild.ts';
import { constantArrivals } from '../rig/load/arrivalSchedule.ts';
import { runOpenModel, type OpenModelResult } from '../rig/load/openModelExecutor.ts';
import { LoadWorkerPool } from '../rig/load/workers/workerPool.ts';
import { printRows } from './benchRows.ts';
import { sustainable, type StepOutcome } from './rateSearch.ts';
import { mixIterationOf, mixSpec, warmedUp } from './workerMix.ts';
import { workerRows } from './generatorWorkersRows.ts';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const STEP_MS = Number(process.env.STEP_MS ?? 3000);
const PROBE_RATE = Number(process.env.PROBE_RATE ?? 20_000);
const WORKERS = Number(process.env.WORKERS ?? 2);
const IN_FLIGHT = CONNECTIONS * 4;
const ATTEMPTS = Number(process.env.ATTEMPTS ?? 3);
const WARM_RUNS = Number(process.env.WARM_RUNS ?? 3);

const cores = availableParallelism();
const freeCores = Math.max(0, cores - loadavg()[0]);

const target = await startJsonLineChild<number>(
  process.execPath,
  [new URL('./trivialA2ATarget.mjs', import.meta.url).pathname],
  { name: 'the target', timeoutMs: 10_000, echoStderr: true },
);
const url = `http://127.0.0.1:${target.info}/`;
const agent = describeAgent(
  url,
  `${url}.well-known/agent-card.json`,
  { url, protocolVersion: '0.3.0', supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] },
  '1.0',
);

const schedule = (rate: number) => ({
  arrivals: constantArrivals(rate, STEP_MS),
  maxInFlight: IN_FLIGHT,
  maxBacklog: 1_000_000,
  iterationTimeoutMs: 5_000,
  drainTimeoutMs: 5_000,
});

/** Runs `run`, with this process's CPU per request (every thread of it) and the main loop's longest stall. */
async function measured(run: () => Promise<OpenModelResult>): Promise<StepOutcome> {
  const cpu = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const result = await run();
  loop.disable();
  const used = process.cpuUsage(cpu);
  return { result, cpuUs: (used.user + used.system) / Math.max(1, result.succeeded), stallMs: loop.max / 1e6 };
}

async function mainThreadStep(rate: number): Promise<StepOutcome> {
  // As a worker thread's client (workerClient.ts): replies checked and counted, not kept.
  const client = A2AClient.forAgent(agent, { connections: CONNECTIONS, history: new EventHistory({}, false) });
  try {
    const iteration = await warmedUp(mixIterationOf(client));
    return await measured(() => runOpenModel({ ...schedule(rate), iteration }));
  } finally {
    await client.close();
  }
}

const pool = new LoadWorkerPool(WORKERS);
const spec = mixSpec({ agent, connections: CONNECTIONS, warm: true });
const poolStep = (rate: number) => measured(() => pool.run(schedule(rate), { spec, sinks: {} }));

const cpu: Record<'one' | 'pool', number[]> = { one: [], pool: [] };
const search = (label: 'one' | 'pool', step: (rate: number) => Promise<StepOutcome>) => ({
  label: label === 'one' ? '1 worker (main thread)' : `${WORKERS} worker threads`,
  step,
  attempts: ATTEMPTS,
  onCpu: (us: number) => cpu[label].push(us),
});

console.log(`${cores} cores, ${freeCores.toFixed(1)} free (cores − 1-minute load average) at the start`);
// Warm-up, not measured: the target, and the JIT of every thread (each worker has its own, warmed
// only by its share: one short run leaves the workers' code colder than the main thread's).
for (let i = 0; i < WARM_RUNS; i++) {
  await mainThreadStep(1000);
  await poolStep(1000);
}
// The steps' scale: what one worker completes when offered far more than it can start (its
// throughput when saturated). Both searches step in shares of it, so one step is a tenth of one
// worker's capacity whatever the box, and two workers can show up to ×2.
const probe = (await mainThreadStep(PROBE_RATE)).result;
const baseline = Math.round((probe.succeeded * 1000) / probe.elapsedMs);
console.log(`steps are shares of ${baseline} req/s (one worker saturated at ${PROBE_RATE}/s offered)`);
const one = await sustainable(search('one', mainThreadStep), baseline);
const many = await sustainable(search('pool', poolStep), baseline);
await pool.close();
await target.kill();
const median = (xs: number[]) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
const ratio = one > 0 ? many / one : NaN;
console.log(`sustainable: 1 worker ${one} req/s, ${WORKERS} workers ${many} req/s — ×${ratio.toFixed(2)} (goal ≥ 1.7)`);
const cpuText = `1 worker ${median(cpu.one).toFixed(0)} µs, ${WORKERS} workers ${median(cpu.pool).toFixed(0)} µs`;
console.log(`CPU of this process (all threads) per request, median over steps: ${cpuText}`);
printRows(
  workerRows({
    one,
    many,
    workers: WORKERS,
    cores,
    freeCores,
    cpuUs: { one: median(cpu.one), many: median(cpu.pool) },
    connections: CONNECTIONS,
    inFlight: IN_FLIGHT,
  }),
);
