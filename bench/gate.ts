// The regression gate's false alarms and power (issue 23's "done when"), measured the way a user
// meets them: identical runs of the same suite compared pairwise with `compare`'s defaults, on a
// quiet box and beside a CPU hog (`stress-ng --cpu 1`, started and stopped by PID), then runs with
// a +3 ms and a +10 ms latency toxic compared against the quiet ones.
//
// - false alarms: rows flagged `regression` over every ordered pair of identical runs (goal 0);
//   inconclusive rows are allowed and counted;
// - power: the share of (quiet, toxic) pairs where `resume_latency` p50 is a regression (goals
//   95 % for +3 ms, 100 % for +10 ms).
// Run: npm run bench -- --only gate   (GATE_RUNS=6 identical runs per condition, GATE_TOXIC_RUNS=3)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRuns, DEFAULT_COMPARE_OPTIONS } from '../rig/report/compareRuns.ts';
import { readRunResult } from '../rig/report/readRunResult.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { repoRoot } from './agentProcess.ts';
import { printRows, type BenchRow } from './benchRows.ts';

const SCENARIOS = ['resume-latency', 'cf4', 'duplicate-flood', 'disconnect-replay'];
const RUNS = Number(process.env.GATE_RUNS ?? 6);
const TOXIC_RUNS = Number(process.env.GATE_TOXIC_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-gate-'));

function rigRun(name: string, extra: string[] = []): RunResult {
  const out = join(dir, name);
  const r = spawnSync(process.execPath, ['bin/a2a-rig.js', 'run', ...SCENARIOS, ...extra, '--out', out], {
    cwd: repoRoot,
    stdio: 'ignore',
    timeout: 180_000,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`run ${name} exited ${r.status ?? r.signal}`);
  return readRunResult(out);
}

function withHog<T>(work: () => T): { value: T } | { missing: string } {
  const probe = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' });
  if (probe.error) return { missing: 'stress-ng is not installed (apt-get install stress-ng)' };
  const hog = spawn('stress-ng', ['--cpu', '1', '--timeout', '1800s'], { stdio: 'ignore' });
  try {
    return { value: work() };
  } finally {
    hog.kill('SIGKILL');
  }
}

interface PairTally {
  pairs: number;
  regressions: number;
  inconclusive: number;
  rows: number;
  /** Flagged rows by `scenario measure`, for the detail. */
  flagged: Map<string, number>;
}

const top = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');

function identicalPairs(runs: RunResult[]): PairTally {
  const t: PairTally = { pairs: 0, regressions: 0, inconclusive: 0, rows: 0, flagged: new Map() };
  for (const a of runs)
    for (const b of runs) {
      if (a === b) continue;
      const c = compareRuns(a, b, DEFAULT_COMPARE_OPTIONS);
      t.pairs++;
      t.rows += c.rows.length;
      t.regressions += c.regressions.length;
      for (const r of c.regressions)
        t.flagged.set(`${r.scenario} ${r.measure}`, (t.flagged.get(`${r.scenario} ${r.measure}`) ?? 0) + 1);
      t.inconclusive += c.notJudged.length;
    }
  return t;
}

function power(baselines: RunResult[], slowed: RunResult[]): { pairs: number; flagged: number } {
  let flagged = 0;
  for (const a of baselines)
    for (const b of slowed)
      if (
        compareRuns(a, b).regressions.some((r) => r.scenario === 'resume-latency' && r.measure === 'resume_latency p50')
      )
        flagged++;
  return { pairs: baselines.length * slowed.length, flagged };
}

const times = (n: number, f: (i: number) => RunResult) => Array.from({ length: n }, (_, i) => f(i));
/** What else used the machine: the runs' 1-minute load per core as each started, lowest to highest. */
const loads = (runs: RunResult[]) => {
  const l = runs.map((r) => r.rig.loadPerCore).filter((x): x is number => x !== undefined);
  return l.length ? `load per core ${Math.min(...l).toFixed(2)}-${Math.max(...l).toFixed(2)}` : 'load unknown';
};
const alarmDetail = (t: PairTally, runs: RunResult[]) =>
  `${t.regressions} regression rows over ${t.pairs} ordered pairs of identical runs (${t.rows} rows); ` +
  `${t.inconclusive} inconclusive${t.flagged.size ? `; most flagged: ${top(t.flagged)}` : ''}; ${loads(runs)}`;

try {
  const quiet = times(RUNS, (i) => rigRun(`quiet-${i}`));
  const hogged = withHog(() => times(RUNS, (i) => rigRun(`hog-${i}`)));
  const lat3 = times(TOXIC_RUNS, (i) => rigRun(`lat3-${i}`, ['--toxic', 'latency=3']));
  const lat10 = times(TOXIC_RUNS, (i) => rigRun(`lat10-${i}`, ['--toxic', 'latency=10']));
  const q = identicalPairs(quiet);
  const rows: BenchRow[] = [
    {
      id: 'gate.falseAlarms.quiet',
      label: 'regression rows, identical runs, as the box is',
      unit: 'rows',
      value: q.regressions,
      goal: { op: '<=', value: 0 },
      detail: alarmDetail(q, quiet),
    },
  ];
  if ('value' in hogged) {
    const h = identicalPairs(hogged.value);
    rows.push({
      id: 'gate.falseAlarms.hog',
      label: 'regression rows, identical runs, stress-ng --cpu 1 beside',
      unit: 'rows',
      value: h.regressions,
      goal: { op: '<=', value: 0 },
      detail: alarmDetail(h, hogged.value),
    });
  } else
    rows.push({
      id: 'gate.falseAlarms.hog',
      label: 'regression rows, identical runs, stress-ng --cpu 1 beside',
      unit: 'rows',
      value: null,
      goal: { op: '<=', value: 0 },
      invalid: hogged.missing,
    });
  for (const [ms, slowed, goal] of [
    [3, lat3, 0.95],
    [10, lat10, 1],
  ] as const) {
    const p = power(quiet, slowed);
    rows.push({
      id: `gate.power.latency${ms}`,
      label: `resume_latency p50 flagged, +${ms} ms toxic vs quiet runs`,
      unit: 'share',
      value: p.flagged / p.pairs,
      goal: { op: '>=', value: goal },
      detail: `${p.flagged} of ${p.pairs} pairs; toxic runs: ${loads(slowed)}`,
    });
  }
  printRows(rows);
} finally {
  // GATE_KEEP=1 keeps the runs for a closer look.
  if (process.env.GATE_KEEP) console.error(`gate: runs kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
