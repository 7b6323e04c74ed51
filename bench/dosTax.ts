// The attack tax on a shared machine (issue 23's "done when"): the six dos-* scenarios, smoke, as
// `npm start` runs them, against the correct reference agent beside a CPU hog (`stress-ng --cpu 1`,
// started and killed by PID) must all pass — a neighbour's CPU is not the agent's fault — and each
// mitigation-removing --agent-fault, beside the same hog, must still fail its family on the check
// of the attack it lets through (the scenarios' `catches`).
// Run: npm run bench -- --only dosTax   (DOS_TAX_RUNS=N runs of the six, correct agent; default 2)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenarios } from '../rig/engine/scenarioCatalog.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { repoRoot } from './agentProcess.ts';
import { printRows, type BenchRow } from './benchRows.ts';
import { withHog } from './cpuHog.ts';

const RUNS = Number(process.env.DOS_TAX_RUNS ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-dos-tax-'));
const dos = (await loadScenarios()).filter((s) => s.tags.includes('dos'));
const catches = dos.flatMap((s) =>
  (s.catches ?? []).flatMap((c) => (typeof c === 'string' ? [] : [{ scenario: s.name, ...c }])),
);

let serial = 0;
function rigRun(args: string[]): RunResult {
  const out = join(dir, `run-${serial++}`);
  const r = spawnSync(process.execPath, ['bin/a2a-rig.js', 'run', ...args, '--out', out], {
    cwd: repoRoot,
    stdio: 'ignore',
    timeout: 600_000,
  });
  if (r.status === null || r.status === 2) throw new Error(`run ${args.join(' ')} ended ${r.status ?? r.signal}`);
  return JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
}

const load = () => (Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]) / 2).toFixed(2);

function correctRow(): BenchRow {
  const verdicts = Array.from({ length: RUNS }, () => rigRun(dos.map((s) => s.name))).flatMap((r) =>
    r.scenarios.map((s) => `${s.name} ${s.verdict}`),
  );
  const bad = verdicts.filter((v) => !v.endsWith(' passed'));
  return {
    id: 'dosTax.correctAgent.notPassed',
    label: 'dos-* scenarios not passed, correct agent, stress-ng --cpu 1 beside',
    unit: 'scenarios',
    value: bad.length,
    goal: { op: '<=', value: 0 },
    detail:
      `${bad.length} of ${verdicts.length} (${RUNS} runs of ${dos.length}): ${bad.join(', ') || 'all passed'}; ` +
      `load per core ${load()} at the end`,
  };
}

function faultsRow(): BenchRow {
  const missed: string[] = [];
  for (const c of catches) {
    const s = rigRun([c.scenario, '--agent-fault', c.fault]).scenarios[0]!;
    // The attack's own guarantee, not its tax (which a busy box can move): as the mutation matrix asks.
    const own = (name: string) => name.startsWith(`${c.attack}:`) && !name.startsWith(`${c.attack}: attack tax`);
    const named = s.checks.some((k) => !k.ok && k.judged !== false && own(k.name));
    if (s.verdict !== 'failed' || !named) missed.push(`${c.fault} (${c.scenario} ${s.verdict})`);
  }
  return {
    id: 'dosTax.faults.caught',
    label: 'DoS fault flags whose family fails on the attack they let through, stress-ng --cpu 1 beside',
    unit: 'share',
    value: catches.length ? (catches.length - missed.length) / catches.length : null,
    goal: { op: '>=', value: 1 },
    detail:
      `${catches.length - missed.length} of ${catches.length}; missed: ${missed.join(', ') || 'none'}; ` +
      `load per core ${load()} at the end`,
  };
}

try {
  const rows = withHog(() => [correctRow(), faultsRow()]);
  if ('missing' in rows) throw new Error(`${rows.missing}: the hog is the point of this benchmark`);
  printRows(rows.value);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
