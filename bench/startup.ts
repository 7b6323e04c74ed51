// What starting the rig costs (issue 26): `a2a-rig --version` until it has exited, and `a2a-rig
// agent` until it prints its JSON line (listening, outbox open): the wall time, the figure a user
// waits for and the goal, and the CPU time, which other processes on the machine do not inflate.
// Each is started RUNS times, one after another, through bin/a2a-rig.js as a user starts it (in a
// checkout that includes the check that dist/ is current); the rows give the minimum, the detail
// the median. Prints the figures, then the BENCH_ROWS line (bench/benchRows.ts).
// Run: npx tsx bench/startup.ts   Env: RUNS (7).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { repoRoot, startReferenceAgent } from './agentProcess.ts';
import { printRows, type BenchRow } from './benchRows.ts';

const RUNS = Number(process.env.RUNS ?? 7);
// The child's own CPU time, written as it exits: Node gives a parent no rusage of its children.
const CPU_AT_EXIT =
  'data:text/javascript,' +
  encodeURIComponent(
    "import { writeSync } from 'node:fs';" +
      "process.on('exit', () => { const u = process.cpuUsage(); writeSync(2, `CPU_US ${u.user + u.system}\\n`); });",
  );

interface Sample {
  wallMs: number;
  cpuMs: number;
}

function versionOnce(): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', CPU_AT_EXIT, join(repoRoot, 'bin/a2a-rig.js'), '--version'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code) => {
      const wallMs = performance.now() - started;
      const cpu = /CPU_US (\d+)/.exec(stderr);
      if (code !== 0 || !cpu) reject(new Error(`a2a-rig --version exited ${code}: ${stderr}`));
      else resolve({ wallMs, cpuMs: Number(cpu[1]) / 1000 });
    });
  });
}

/** utime + stime of a live process, from /proc (Linux), in ms. */
function procCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // Fields 14 and 15 of stat(5), counted from the state field (3): in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function agentOnce(): Promise<Sample> {
  const started = performance.now();
  const agent = await startReferenceAgent('agent');
  const wallMs = performance.now() - started;
  const cpuMs = procCpuMs(agent.pid);
  await agent.stop();
  return { wallMs, cpuMs };
}

async function sample(what: () => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await what());
  return samples;
}

const min = (xs: number[]) => Math.min(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x);

function rows(id: string, label: string, samples: Sample[], goalMs: number): BenchRow[] {
  const wall = samples.map((s) => s.wallMs);
  const cpu = samples.map((s) => s.cpuMs);
  const detail = `min of ${samples.length}; median wall ${round(median(wall))} ms, median CPU ${round(median(cpu))} ms`;
  console.log(`${label}: wall min ${round(min(wall))} ms, CPU min ${round(min(cpu))} ms (${detail})`);
  return [
    {
      id: `${id}.wall`,
      label: `${label}, wall`,
      value: round(min(wall)),
      unit: 'ms',
      goal: { op: '<=', value: goalMs },
      detail,
    },
    { id: `${id}.cpu`, label: `${label}, CPU`, value: round(min(cpu)), unit: 'ms', detail },
  ];
}

const version = await sample(versionOnce);
const agent = await sample(agentOnce);
printRows([
  ...rows('startup.version', 'a2a-rig --version until exit', version, 300),
  ...rows('startup.agentReady', 'a2a-rig agent until ready', agent, 500),
]);
