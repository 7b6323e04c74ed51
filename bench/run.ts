// One benchmark run that prints every row of issue 13's table with its goal and whether it is met.
// Describes the machine, runs each benchmark (bench/benchCatalogue.ts) in its own child process,
// one after another (they would disturb each other), gathers the BENCH_ROWS line each prints last
// and prints one table.
// Exit: 0 when every benchmark ran and measured every row with a goal, met or not (a missed goal
// is a finding, not a failure of the tool; `--strict` makes it exit 1); 4 when a benchmark
// crashed, timed out or left a goal unmeasured; 2 on a usage error; 130/143 when interrupted.
// Run: npm run bench [-- --only agent,sdkComparison] [--json rows.json] [--strict]
//   Env: BENCH_TIMEOUT_S overrides every benchmark's time bound; the benchmarks' own env vars pass through.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { EXIT } from '../rig/exitCodes.ts';
import { repoRoot } from './agentProcess.ts';
import { BENCHMARKS } from './benchCatalogue.ts';
import { ROWS_PREFIX } from './benchRows.ts';
import {
  exitCodeOf,
  formatTable,
  judgeBenchmark,
  summarize,
  summaryLine,
  type BenchmarkOutcome,
  type BenchmarkSpec,
  type JudgedBenchmark,
} from './benchTable.ts';

// The rows line is printed last; a chatty benchmark must not grow the runner without bound.
const MAX_CAPTURED_CHARS = 4 * 1024 * 1024;
const KILL_GRACE_MS = 5_000;

let options: { json?: string; only?: string; strict?: boolean };
try {
  options = parseArgs({
    options: { json: { type: 'string' }, only: { type: 'string' }, strict: { type: 'boolean' } },
  }).values;
} catch (err) {
  console.error(`bench: ${(err as Error).message} (options: --only <names>, --json <file>, --strict)`);
  process.exit(EXIT.usage);
}
const only = options.only?.split(',').map((s) => s.trim());
const unknown = only?.filter((n) => !BENCHMARKS.some((b) => b.name === n)) ?? [];
if (unknown.length) {
  console.error(`bench: no benchmark named ${unknown.join(', ')} (known: ${BENCHMARKS.map((b) => b.name).join(', ')})`);
  process.exit(EXIT.usage);
}
const selected = BENCHMARKS.filter((b) => !only || only.includes(b.name));
const timeoutOverride = process.env.BENCH_TIMEOUT_S ? Number(process.env.BENCH_TIMEOUT_S) * 1000 : undefined;

let current: { kill: (signal: NodeJS.Signals) => void } | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    current?.kill('SIGKILL');
    process.exit(signal === 'SIGINT' ? EXIT.SIGINT : EXIT.SIGTERM);
  });
}

/** Runs one benchmark in its own process group (so a timeout also reaps the agents it started), echoing its output. */
function runBenchmark(spec: BenchmarkSpec): Promise<BenchmarkOutcome> {
  const timeoutMs = timeoutOverride ?? spec.timeoutMs;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, spec.script)], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    current = { kill: killGroup };
    let stdout = '';
    let timedOutAfterMs: number | undefined;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout = (stdout + line + '\n').slice(-MAX_CAPTURED_CHARS);
      const shown = line.startsWith(ROWS_PREFIX)
        ? `${ROWS_PREFIX}(${line.length} characters, in the table below)`
        : line;
      console.log(`[${spec.name}] ${shown}`);
    });
    createInterface({ input: child.stderr! }).on('line', (line) => console.error(`[${spec.name}] ${line}`));
    const timer = setTimeout(() => {
      timedOutAfterMs = timeoutMs;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS).unref();
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ exitCode: null, signal: null, startError: err.message, stdout });
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      current = undefined;
      // Whatever the benchmark left behind (an agent it did not stop) goes with it.
      killGroup('SIGKILL');
      resolve({ exitCode, signal, stdout, ...(timedOutAfterMs !== undefined ? { timedOutAfterMs } : {}) });
    });
  });
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Number((totalmem() / 1024 ** 3).toFixed(1)),
  node: process.version,
  os: `${osType()} ${release()}`,
  loadAtStart: load(),
  loadAtEnd: '',
  startedAt: new Date().toISOString(),
};
const box = `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}`;
console.log(`machine: ${box}; load average ${machine.loadAtStart} (1/5/15 min)`);

const results: JudgedBenchmark[] = [];
for (const spec of selected) {
  console.log(`\n== ${spec.name} (${spec.script}) ==`);
  const outcome = await runBenchmark(spec);
  results.push(judgeBenchmark(spec, outcome));
}
machine.loadAtEnd = load();

const summary = summarize(results);
console.log(
  `\nmachine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}`,
);
console.log(
  `load average at start ${machine.loadAtStart}, at end ${machine.loadAtEnd} ` +
    '(1/5/15 min; other work on the box disturbs every figure)\n',
);
console.log(formatTable(results));
console.log(`\n${summaryLine(summary)}`);
if (options.json)
  writeFileSync(options.json, JSON.stringify({ machine, summary, benchmarks: results }, null, 2) + '\n');

process.exitCode = exitCodeOf(summary, options.strict === true);
