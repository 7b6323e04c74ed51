// The regression gate as the README recommends it, `a2a-rig ab` (issue 23's "done when", A/B
// mode): short A/B runs of the default measurement between two identical embedded agents, and
// between the agent and the same agent behind a +3 ms and a +10 ms latency toxic, half of each on
// the box as it is and half beside a CPU hog (`stress-ng --cpu 1`, started and killed by PID).
// False alarms: rows flagged `regression` between identical agents (goal 0). Power: the share of
// A/B runs whose final `resume_latency` p50 row is a regression (goals 95 % at +3 ms, 100 % at
// +10 ms), with the round that first decided it. Every A/B run is capped at AB_ROUNDS rounds.
// Run: npm run bench -- --only abGate   (AB_GATE_RUNS=N A/B runs per kind, default 10; AB_GATE_ROUNDS
// caps each A/B run, default 3; AB_GATE_ONLY=3 measures one kind; AB_GATE_KEEP=1 keeps the runs)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './agentProcess.ts';
import { printRows, type BenchRow } from './benchRows.ts';
import { withHog } from './cpuHog.ts';

const RUNS = Number(process.env.AB_GATE_RUNS ?? 10);
const AB_ROUNDS = Number(process.env.AB_GATE_ROUNDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-ab-gate-'));

interface AbRow {
  scenario: string;
  measure: string;
  result: string;
}
interface AbRecord {
  exit: number;
  rounds: { round: number; rows: AbRow[] }[];
}

let serial = 0;
function abRun(candidateArgs: string[]): AbRecord {
  const out = join(dir, `ab-${serial++}`);
  const args = ['bin/a2a-rig.js', 'ab', '--out', out, '--max-rounds', String(AB_ROUNDS), ...candidateArgs];
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'ignore', timeout: 300_000 });
  if (r.status === null || r.status === 2)
    throw new Error(`ab ${candidateArgs.join(' ')} ended ${r.status ?? r.signal}`);
  return JSON.parse(readFileSync(join(out, 'ab.json'), 'utf8')) as AbRecord;
}

/** RUNS A/B runs: the first half on the box as it is, the second half beside the hog. */
function abRuns(candidateArgs: string[]): { records: AbRecord[]; hogged: number } {
  const half = Math.ceil(RUNS / 2);
  const quiet = Array.from({ length: half }, () => abRun(candidateArgs));
  const hog = withHog(() => Array.from({ length: RUNS - half }, () => abRun(candidateArgs)));
  const hogged = 'value' in hog ? hog.value : [];
  return { records: [...quiet, ...hogged], hogged: hogged.length };
}

const isP50 = (r: AbRow) => r.scenario === 'resume-latency' && r.measure === 'resume_latency p50';
const load = () => `load per core ${(Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]) / 2).toFixed(2)}`;

function alarmRow(): BenchRow {
  const { records, hogged } = abRuns([]);
  const flagged = records.flatMap((r) => r.rounds.at(-1)?.rows.filter((x) => x.result === 'regression') ?? []);
  const undecided = records.filter((r) => r.exit === 3).length;
  return {
    id: 'abGate.falseAlarms',
    label: `regression rows, ab between identical agents (≤ ${AB_ROUNDS} rounds)`,
    unit: 'rows',
    value: flagged.length,
    goal: { op: '<=', value: 0 },
    detail:
      `${flagged.length} regression rows over ${records.length} A/B runs (${hogged} beside stress-ng --cpu 1); ` +
      `${undecided} ended undecided; flagged: ${flagged.map((x) => x.measure).join(', ') || 'none'}; ` +
      `${load()} at the end`,
  };
}

function powerRow(ms: number, goal: number): BenchRow {
  const { records, hogged } = abRuns([`--candidate-arg=--toxic=latency=${ms}`]);
  const found = records.filter((r) => r.rounds.at(-1)?.rows.some((x) => isP50(x) && x.result === 'regression'));
  const firstRound = found.map((r) => r.rounds.find((x) => x.rows.some((y) => isP50(y) && y.result === 'regression'))!);
  const rounds = firstRound.map((r) => r.round);
  return {
    id: `abGate.power.latency${ms}`,
    label: `resume_latency p50 a regression, ab +${ms} ms toxic (≤ ${AB_ROUNDS} rounds)`,
    unit: 'share',
    value: Math.round((found.length / records.length) * 1000) / 1000,
    goal: { op: '>=', value: goal },
    detail:
      `${found.length} of ${records.length} A/B runs (${hogged} beside stress-ng --cpu 1); decided at round ` +
      `${rounds.length ? `${Math.min(...rounds)}-${Math.max(...rounds)}` : '–'}; ${load()} at the end`,
  };
}

try {
  // AB_GATE_ONLY=alarms,3,10 runs some kinds (a closer look at one; the others are not measured).
  const only = (process.env.AB_GATE_ONLY ?? 'alarms,3,10').split(',');
  const rows = [
    ...(only.includes('alarms') ? [alarmRow()] : []),
    ...(only.includes('3') ? [powerRow(3, 0.95)] : []),
    ...(only.includes('10') ? [powerRow(10, 1)] : []),
  ];
  printRows(rows);
} finally {
  if (process.env.AB_GATE_KEEP) console.error(`abGate: A/B runs kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
