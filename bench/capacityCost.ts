// What the rig costs per HITL round trip against what the agent it loads costs (issue 25): the real
// `capacity` scenario against the embedded reference agent, run through the CLI as a user runs it,
// and the CPU of the highest sustainable step (the knee) read from the curve it writes to
// results.json (rig_cpu_us_per_round_trip, agent_cpu_us_per_round_trip: CPU over the step, drain
// included, per round trip completed). The rig's figure is its whole process (every thread: the
// JavaScript thread, GC helpers, libuv's pool); with no --toxic, capacity's load goes straight to
// the agent, past the fault proxy (the curve's rig_cpu_counts says so). A second run sends the load
// through a proxy in a process of its own (`a2a-rig proxy`, passed as --toxiproxy URL, with a 0 ms
// latency toxic so the load passes it) to tell what a proxy in the path costs: its CPU over that
// whole run per round trip completed, and the rig's per round trip at that run's knee.
// Run: npm run bench -- --only capacityCost
//   Env: CAP_PROFILE (default full), CAP_PARAMS (more capacity params, e.g.
//   startRate=400,stepMs=5000), CAP_PROXY_APART=0 (skip the second run).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSecondsFromStat } from '../rig/engine/dos/agentResources.ts';
import { startJsonLineChild } from '../rig/engine/environment/jsonLineChild.ts';
import { CAPACITY_SERIES } from '../rig/load/capacitySlo.ts';
import { readRunResult } from '../rig/report/readRunResult.ts';
import type { SeriesPoint } from '../rig/results/runResult.ts';
import { repoRoot } from './agentProcess.ts';
import { printRows, type BenchRow } from './benchRows.ts';

const PROFILE = process.env.CAP_PROFILE ?? 'full';
const PARAMS = (process.env.CAP_PARAMS ?? '')
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean)
  .flatMap((p) => ['--param', `capacity.${p}`]);
const PROXY_APART = process.env.CAP_PROXY_APART !== '0';
// The full profile's budget is 15 min; the run's own setup and report come on top.
const RUN_TIMEOUT_MS = 20 * 60_000;

interface Knee {
  point: SeriesPoint;
  /** Round trips completed over the whole run (warm-up excluded). */
  completed: number;
  /** Why the figure must not count, when something went wrong. */
  invalid?: string;
}

const num = (p: SeriesPoint, field: string) => (typeof p[field] === 'number' ? (p[field] as number) : undefined);

/** One `a2a-rig run capacity`, its knee read from results.json; throws when the run gave none. */
function runCapacity(dir: string, name: string, extra: string[] = []): Knee {
  const out = join(dir, name);
  const args = ['bin/a2a-rig.js', 'run', 'capacity', '--profile', PROFILE, ...PARAMS, ...extra, '--out', out];
  console.log(`${name}: a2a-rig ${args.slice(1).join(' ')} (load average ${loadavg()[0]!.toFixed(2)})`);
  const r = spawnSync(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: RUN_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  // 0 passed, 1 a check failed, 3 not judged (the rig was the limit): each still wrote its curve.
  if (r.status !== 0 && r.status !== 1 && r.status !== 3) {
    const said =
      String(r.stderr ?? '')
        .trim()
        .split('\n')
        .at(-1) ?? '';
    throw new Error(`${name}: exited ${r.status ?? r.signal}${said ? `: ${said.slice(0, 300)}` : ''}`);
  }
  const scenario = readRunResult(out).scenarios.find((s) => s.name === 'capacity');
  if (!scenario) throw new Error(`${name}: results.json has no capacity scenario`);
  const held = scenario.counters.capacity_per_s ?? 0;
  const point = scenario.series?.[CAPACITY_SERIES]?.filter((p) => p.x === held && p.sustainable === true).at(-1);
  if (!point) throw new Error(`${name}: no sustainable step (capacity_per_s ${held}; verdict ${scenario.verdict})`);
  const errors = (num(point, 'errors') ?? 0) + (num(point, 'dropped') ?? 0);
  console.log(`${name}: knee ${held}/s: ${JSON.stringify(point)}`);
  return {
    point,
    completed: scenario.counters.round_trips_completed ?? 0,
    ...(errors > 0 ? { invalid: `${errors} round trips failed or dropped at the knee` } : {}),
  };
}

function procCpuSeconds(pid: number): number {
  const seconds = cpuSecondsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  if (seconds === undefined) throw new Error(`cannot read the CPU of process ${pid}`);
  return seconds;
}

/** The run through a fault proxy in its own process: the rig at its knee, the proxy per round trip. */
async function runProxyApart(dir: string): Promise<{ knee: Knee; proxyUs: number }> {
  const proxy = await startJsonLineChild<{ api: string }>(
    process.execPath,
    [join(repoRoot, 'bin/a2a-rig.js'), 'proxy', '--api-port', '0'],
    { name: 'a2a-rig proxy', timeoutMs: 30_000, cwd: repoRoot, echoStderr: true },
  );
  try {
    const before = procCpuSeconds(proxy.child.pid!);
    const knee = runCapacity(dir, 'proxy-apart', ['--toxiproxy', proxy.info.api, '--toxic', 'latency=0']);
    const proxyUs = ((procCpuSeconds(proxy.child.pid!) - before) * 1e6) / Math.max(1, knee.completed);
    return { knee, proxyUs };
  } finally {
    await proxy.stop(10_000);
  }
}

const us = (v: number | undefined) => (v === undefined ? null : Math.round(v));

function kneeRows(knee: Knee | undefined, failure: string | undefined): BenchRow[] {
  const p = knee?.point;
  const rig = p && num(p, 'rig_cpu_us_per_round_trip');
  const agent = p && num(p, 'agent_cpu_us_per_round_trip');
  const missing = knee && (rig === undefined || agent === undefined) ? 'the knee step has no CPU figures' : undefined;
  const invalid = failure ?? missing ?? knee?.invalid;
  const mark = invalid ? { invalid } : {};
  const detail = p
    ? `knee ${p.x}/s offered, ${p.achieved_per_s}/s achieved; rig ${p.rig_cpu_pct} % of a core, ` +
      `agent ${p.agent_cpu_pct} %; profile ${PROFILE}${PARAMS.length ? ` ${PARAMS.join(' ')}` : ''}`
    : undefined;
  const common = { ...mark, ...(detail ? { detail } : {}) };
  return [
    {
      id: 'capacity.rigCpuPerRoundTrip.ratioToAgent',
      label: "rig CPU / agent CPU per HITL round trip at the capacity knee (rig's process; no toxic, no proxy)",
      value: rig !== undefined && agent ? Math.round((rig / agent) * 100) / 100 : null,
      unit: 'x',
      goal: { op: '<=', value: 0.5 },
      ...common,
    },
    {
      id: 'capacity.rigCpuPerRoundTrip',
      label: 'rig CPU per round trip at the knee',
      value: us(rig),
      unit: 'µs',
      ...common,
    },
    {
      id: 'capacity.agentCpuPerRoundTrip',
      label: 'agent CPU per round trip at the knee',
      value: us(agent),
      unit: 'µs',
      ...common,
    },
    {
      id: 'capacity.kneeRoundTripsPerSecond',
      label: 'round trips/s achieved at the knee',
      value: p ? (num(p, 'achieved_per_s') ?? null) : null,
      unit: 'round trips/s',
      ...common,
    },
  ];
}

function proxyRows(apart: { knee: Knee; proxyUs: number } | undefined, failure: string | undefined): BenchRow[] {
  const p = apart?.knee.point;
  const mark = failure || apart?.knee.invalid ? { invalid: failure ?? apart!.knee.invalid! } : {};
  return [
    {
      id: 'capacity.proxyCpuPerRoundTrip',
      label: 'fault proxy CPU per round trip under --toxic latency=0, in its own process (whole run)',
      value: apart ? Math.round(apart.proxyUs) : null,
      unit: 'µs',
      ...mark,
      ...(apart ? { detail: `${apart.knee.completed} round trips` } : {}),
    },
    {
      id: 'capacity.rigCpuPerRoundTrip.proxyApart',
      label: 'rig CPU per round trip at the knee, the load through a proxy in its own process',
      value: p ? us(num(p, 'rig_cpu_us_per_round_trip')) : null,
      unit: 'µs',
      ...mark,
      ...(p ? { detail: `knee ${p.x}/s offered, ${p.achieved_per_s}/s achieved` } : {}),
    },
  ];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-capacity-cost-'));
  const rows: BenchRow[] = [];
  try {
    let knee: Knee | undefined;
    let failure: string | undefined;
    try {
      knee = runCapacity(dir, 'embedded');
    } catch (err) {
      failure = (err as Error).message;
      console.log(`embedded: not measured: ${failure}`);
    }
    rows.push(...kneeRows(knee, failure));
    if (PROXY_APART) {
      let apart: { knee: Knee; proxyUs: number } | undefined;
      let apartFailure: string | undefined;
      try {
        apart = await runProxyApart(dir);
      } catch (err) {
        apartFailure = (err as Error).message;
        console.log(`proxy-apart: not measured: ${apartFailure}`);
      }
      rows.push(...proxyRows(apart, apartFailure));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1/5/15 min)`,
  );
  printRows(rows);
}

await main();
