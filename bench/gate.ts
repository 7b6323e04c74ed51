// The regression gate's false alarms and power (issue 23's "done when"), measured the way a user
// meets them: identical runs of the same suite compared with `compare`'s defaults, on the box as it
// is and beside a CPU hog (`stress-ng --cpu 1`, started and killed by PID), then runs with a +3 ms
// and a +10 ms latency toxic compared against the quiet ones. Two ways to compare:
// - one run against one, every ordered pair (what `compare --baseline A --current B` does);
// - three runs against three: every split of the six identical runs into two sides (20), and every
//   three quiet runs against the three toxic ones (20).
// False alarms: rows flagged `regression` (goal 0; inconclusive rows allowed and counted). Power: the
// share of comparisons where `resume_latency` p50 is a regression (goals 95 % at +3 ms, 100 % at
// +10 ms). Each row's detail gives the runs' load per core: what else was using the machine.
// Run: npm run bench -- --only gate   (GATE_RUNS_DIR=DIR reuses the runs a GATE_KEEP=1 run kept)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRuns } from '../rig/report/compare/compareRuns.ts';
import { readRunResult } from '../rig/report/readRunResult.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { repoRoot } from './agentProcess.ts';
import { printRows, type BenchRow } from './benchRows.ts';
import { withHog } from './cpuHog.ts';

const SCENARIOS = ['resume-latency', 'cf4', 'duplicate-flood', 'disconnect-replay'];
const RUNS = 6;
const TOXIC_RUNS = 3;
const reuse = process.env.GATE_RUNS_DIR;
const dir = reuse ?? mkdtempSync(join(tmpdir(), 'a2a-rig-gate-'));

function rigRun(name: string, extra: string[] = []): RunResult {
  const out = join(dir, name);
  if (reuse && existsSync(join(out, 'results.json'))) return readRunResult(out);
  const r = spawnSync(process.execPath, ['bin/a2a-rig.js', 'run', ...SCENARIOS, ...extra, '--out', out], {
    cwd: repoRoot,
    stdio: 'ignore',
    timeout: 180_000,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`run ${name} exited ${r.status ?? r.signal}`);
  return readRunResult(out);
}

type Side = RunResult[];
/** One run against one, every ordered pair of distinct runs. */
const onePairs = (runs: Side): [Side, Side][] =>
  runs.flatMap((a) => runs.filter((b) => b !== a).map((b): [Side, Side] => [[a], [b]]));
/** Every way to take three of the runs as the baseline and the other three as the current side. */
function threeSplits(runs: Side): [Side, Side][] {
  const out: [Side, Side][] = [];
  for (let mask = 0; mask < 1 << runs.length; mask++) {
    const base = runs.filter((_, i) => mask & (1 << i));
    if (base.length === 3) out.push([base, runs.filter((_, i) => !(mask & (1 << i)))]);
  }
  return out;
}
/** Every three of the baseline runs against all of `slowed`. */
const threeAgainst = (runs: Side, slowed: Side): [Side, Side][] => threeSplits(runs).map(([base]) => [base, slowed]);

function falseAlarms(pairs: [Side, Side][]): { regressions: number; inconclusive: number; rows: number; top: string } {
  const t = { regressions: 0, inconclusive: 0, rows: 0 };
  const flagged = new Map<string, number>();
  for (const [a, b] of pairs) {
    const c = compareRuns(a, b);
    t.rows += c.rows.length;
    t.regressions += c.regressions.length;
    t.inconclusive += c.notJudged.length;
    for (const r of c.regressions)
      flagged.set(`${r.scenario} ${r.measure}`, (flagged.get(`${r.scenario} ${r.measure}`) ?? 0) + 1);
  }
  const top = [...flagged]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
  return { ...t, top };
}

const flaggedShare = (pairs: [Side, Side][]) =>
  pairs.filter(([a, b]) =>
    compareRuns(a, b).regressions.some((r) => r.scenario === 'resume-latency' && r.measure === 'resume_latency p50'),
  ).length / pairs.length;

/** What else used the machine: the runs' 1-minute load per core as each started, lowest to highest. */
const loads = (runs: Side) => {
  const l = runs.map((r) => r.rig.loadPerCore).filter((x): x is number => x !== undefined);
  return l.length ? `load per core ${Math.min(...l).toFixed(2)}-${Math.max(...l).toFixed(2)}` : 'load unknown';
};

function alarmRow(id: string, label: string, pairs: [Side, Side][], runs: Side): BenchRow {
  const t = falseAlarms(pairs);
  return {
    id,
    label,
    unit: 'rows',
    value: t.regressions,
    goal: { op: '<=', value: 0 },
    detail:
      `${t.regressions} regression rows over ${pairs.length} comparisons (${t.rows} rows); ` +
      `${t.inconclusive} inconclusive${t.top ? `; flagged: ${t.top}` : ''}; ${loads(runs)}`,
  };
}

function powerRow(id: string, label: string, pairs: [Side, Side][], goal: number, slowed: Side): BenchRow {
  const share = flaggedShare(pairs);
  return {
    id,
    label,
    unit: 'share',
    value: Math.round(share * 1000) / 1000,
    goal: { op: '>=', value: goal },
    detail: `${Math.round(share * pairs.length)} of ${pairs.length} comparisons; toxic runs: ${loads(slowed)}`,
  };
}

const times = (n: number, f: (i: number) => RunResult) => Array.from({ length: n }, (_, i) => f(i));

try {
  const quiet = times(RUNS, (i) => rigRun(`quiet-${i}`));
  const hogged = withHog(() => times(RUNS, (i) => rigRun(`hog-${i}`)));
  const lat3 = times(TOXIC_RUNS, (i) => rigRun(`lat3-${i}`, ['--toxic', 'latency=3']));
  const lat10 = times(TOXIC_RUNS, (i) => rigRun(`lat10-${i}`, ['--toxic', 'latency=10']));
  const rows: BenchRow[] = [
    alarmRow(
      'gate.falseAlarms.quiet.1v1',
      'regression rows, identical runs, 1 vs 1, as the box is',
      onePairs(quiet),
      quiet,
    ),
    alarmRow(
      'gate.falseAlarms.quiet.3v3',
      'regression rows, identical runs, 3 vs 3, as the box is',
      threeSplits(quiet),
      quiet,
    ),
  ];
  const hogLabel = (k: string) => `regression rows, identical runs, ${k}, stress-ng --cpu 1 beside`;
  if ('value' in hogged) {
    rows.push(alarmRow('gate.falseAlarms.hog.1v1', hogLabel('1 vs 1'), onePairs(hogged.value), hogged.value));
    rows.push(alarmRow('gate.falseAlarms.hog.3v3', hogLabel('3 vs 3'), threeSplits(hogged.value), hogged.value));
  } else
    for (const k of ['1v1', '3v3'])
      rows.push({
        id: `gate.falseAlarms.hog.${k}`,
        label: hogLabel(k),
        unit: 'rows',
        value: null,
        invalid: hogged.missing,
      });
  for (const [ms, slowed, goal] of [
    [3, lat3, 0.95],
    [10, lat10, 1],
  ] as const) {
    const one = quiet.flatMap((q) => slowed.map((s): [Side, Side] => [[q], [s]]));
    const label = (k: string) => `resume_latency p50 flagged, +${ms} ms toxic, ${k}`;
    rows.push(powerRow(`gate.power.latency${ms}.1v1`, label('1 vs 1'), one, goal, slowed));
    rows.push(
      powerRow(`gate.power.latency${ms}.3v3`, label('3 quiet vs 3 toxic'), threeAgainst(quiet, slowed), goal, slowed),
    );
  }
  printRows(rows);
} finally {
  // GATE_KEEP=1 keeps the runs for a closer look (and for GATE_RUNS_DIR).
  if (process.env.GATE_KEEP || reuse) console.error(`gate: runs kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
