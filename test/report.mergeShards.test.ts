// `a2a-rig merge` of a distributed run's workers (run --shard i/N), through the real command line:
// a set directory stands for its shard-<i> workers; the whole set merges with a row per worker and
// the capacity judged again on the union of their steps; a missing worker is refused by name and
// nothing written, unless --partial, which says PARTIAL in every output; a set mixed with an
// ordinary run is refused.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { overallVerdict, type RunResult, type ScenarioResult } from '../rig/results/runResult.ts';
import { operation, traffic } from './support/reportFixtures.ts';
import { readRunFiles, runRig } from './support/rigCli.ts';
import { metricOf, run, scenario } from './support/runResultFixture.ts';

const SERIES = 'round_trip_p95_ms_vs_rate_per_s';
const RATES = [10, 20, 40];
const STEP_MS = 3000;
const WORKERS = 3;
const SLO = { sloP95Ms: 100, sloMaxErrorPct: 1, sloMaxDroppedPct: 1 };
/** Worker i's start lag after the planned start, and its clock's offset to the shared directory (ms). */
const LAG = [5, 12, 30];
const OFFSET = [0, -40, 25];
/** Worker i's failed GetTask requests: its "no reply" count. */
const FAILED = [0, 2, 1];

/**
 * Worker `index`'s capacity share: 1/3 of each step's arrivals, labelled with the total rate, 10 ms
 * round trips except `slowAt40` of 500 ms in the 40/s step, which breaks that worker's own p95.
 */
function capacityShare(index: number, slowAt40: number): ScenarioResult {
  const metrics: ScenarioResult['metrics'] = {};
  const curve = RATES.map((rate) => {
    const n = (rate * STEP_MS) / 1000 / WORKERS;
    const slow = rate === 40 ? slowAt40 : 0;
    const m = (metrics[`round_trip{rate=${rate}}`] = metricOf([
      ...Array<number>(n - slow).fill(10_000),
      ...Array<number>(slow).fill(500_000),
    ]));
    const p95 = m.p95 / 1000;
    const sustainable = p95 <= SLO.sloP95Ms;
    return { x: rate, y: p95, arrivals: n, errors: 0, dropped: 0, late: 0, achieved_per_s: rate / 3, sustainable };
  });
  const capacity = Math.max(...curve.filter((p) => p.sustainable).map((p) => p.x));
  const all = Array<number>(40).fill(10_000);
  return {
    ...scenario('capacity', { counters: { capacity_per_s: capacity, steps: curve.length } }),
    params: { stepMs: STEP_MS, startRate: 10, growth: 2, maxRate: 40, ...SLO },
    checks: [{ name: 'a sustainable rate exists under the SLO (p95 ≤ 100 ms, errors ≤ 1 %, dropped ≤ 1 %)', ok: true }],
    metrics,
    series: { [SERIES]: curve },
    traffic: traffic(
      [
        operation({ operation: 'SendMessage', latencies: all }),
        operation({ operation: 'GetTask', latencies: all.slice(0, 10 + FAILED[index]!), failed: FAILED[index] }),
      ],
      [],
      100,
    ),
  };
}

function worker(index: number): RunResult {
  const scenarios = [capacityShare(index, index === 0 ? 3 : 0), ...(index === 0 ? [scenario('agent-card')] : [])];
  const planned = 1_767_225_600_000;
  return {
    ...run(scenarios, `set1-shard${index}`),
    verdict: overallVerdict(scenarios),
    shard: {
      index,
      count: WORKERS,
      setRunId: 'set1',
      plan: ['agent-card', 'capacity'],
      ran: scenarios.map((s) => s.name),
      host: `host-${index}`,
      barrier: 'directory',
      plannedStartEpochMs: planned,
      startedEpochMs: planned + LAG[index]!,
      clockOffsetMs: OFFSET[index]!,
      clockOffsetUncertaintyMs: 2,
      waitedMs: 800,
    },
  };
}

const root = mkdtempSync(join(tmpdir(), 'a2a-rig-merge-shards-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A set directory as the workers leave it: shard-<i>/results.json for each `present` worker. */
function setDir(name: string, present = [0, 1, 2]): string {
  const dir = join(root, name);
  for (let i = 0; i < WORKERS; i++) {
    mkdirSync(join(dir, `shard-${i}`), { recursive: true });
    if (present.includes(i))
      writeFileSync(join(dir, `shard-${i}`, 'results.json'), `${JSON.stringify(worker(i), null, 2)}\n`);
  }
  return dir;
}

const capacityOf = (r: RunResult) => r.scenarios.find((s) => s.name === 'capacity')!;

describe('merge of a shard set', () => {
  it('merges the whole set, with a row per worker and the capacity judged on the union', async () => {
    const dir = setDir('whole');
    const out = join(root, 'whole-merged');
    // Judged on the recomputed capacity (40), not on the workers' counters added up (20 + 40 + 40).
    const merge = await runRig(['merge', dir, '--out', out, '--threshold', 'capacity:capacity_per_s<=40']);
    expect(merge.stderr).toBe('');
    expect(merge.code).toBe(0);
    const { results, summary } = readRunFiles(out);
    expect(results.runId).toBe('set1-merged');
    expect(results.mergedFrom!.map((m) => m.runId)).toEqual(['set1-shard0', 'set1-shard1', 'set1-shard2']);
    expect(results.shards).toMatchObject({ setRunId: 'set1', count: 3, merged: [0, 1, 2], missing: [] });
    expect(results.shards!.partial).toBe(false);
    expect(results.shards!.workers).toEqual(
      [0, 1, 2].map((i) => ({
        index: i,
        host: `host-${i}`,
        path: join(dir, `shard-${i}`),
        verdict: 'passed',
        scenarios: i === 0 ? 2 : 1,
        requests: 40 + 10 + FAILED[i]!,
        failedRequests: FAILED[i],
        startedAt: new Date(1_767_225_600_000 + LAG[i]!).toISOString(),
        startLagMs: LAG[i],
        clockOffsetMs: OFFSET[i],
      })),
    );
    expect(results.shards!.clockSkewMs).toBe(65);
    // Starts on the shared directory's clock: 5 + 0, 12 − 40, 30 + 25.
    expect(results.shards!.startSpreadMs).toBe(55 - -28);

    // Worker 0's own search broke at 40/s (3 of its 40 round trips slow); the union's 3 of 120 hold.
    // Neither worker 0's 20/s nor the counters' sum (20 + 40 + 40) is the run's capacity.
    const capacity = capacityOf(results);
    expect(capacity.counters.capacity_per_s).toBe(40);
    expect(Object.keys(capacity.series!)).toEqual([SERIES]);
    expect(capacity.series![SERIES]!.map((p) => [p.x, p.arrivals, p.sustainable, p.workers])).toEqual([
      [10, 30, true, 3],
      [20, 60, true, 3],
      [40, 120, true, 3],
    ]);
    expect(capacity.checks.at(-1)!.detail).toMatch(
      /^judged again on the merged workers: capacity ≥ 40\/s .*every step the workers ran held/,
    );
    expect(results.thresholds).toMatchObject([{ expression: 'capacity:capacity_per_s<=40', ok: true, actual: 40 }]);
    expect(results.verdict).toBe('passed');

    expect(summary).toMatch(/^## Workers$/m);
    expect(summary).toMatch(/^\| 1 \| host-1 \| passed \| 1 \| 52 \| 2 \| 12 ms \| -40 ms \|$/m);
    expect(summary).toMatch(/^\| total \| 3 of 3 \| +\| +\| 153 \| 3 \| spread 83 ms \| skew 65 ms \|$/m);
    expect(summary).not.toMatch(/PARTIAL/);
    expect(merge.stdout).toMatch(/^workers\n {2}worker +host +verdict/m);
    expect(merge.stdout).toMatch(/^ {2}2 +host-2 +passed +1 +51 +1 +30 ms +\+25 ms$/m);
    expect(merge.stdout).toContain('Merged 3 of 3 workers of run set1.');
    const report = readFileSync(join(out, 'report.html'), 'utf8');
    expect(report).toContain('<section id="workers"><h2>Workers</h2>');
    expect(report).toContain('<td>host-0</td>');
  });

  it('takes the workers given one by one, as directories or results.json files', async () => {
    const dir = setDir('explicit');
    const out = join(root, 'explicit-merged');
    const args = [join(dir, 'shard-0'), join(dir, 'shard-1', 'results.json'), join(dir, 'shard-2')];
    const merge = await runRig(['merge', ...args, '--out', out]);
    expect(merge.stderr).toBe('');
    expect(readRunFiles(out).results.shards).toMatchObject({ merged: [0, 1, 2], partial: false });
  });

  it('refuses a set with a worker missing, naming it, and writes nothing', async () => {
    const dir = setDir('missing', [0, 2]);
    const out = join(root, 'missing-merged');
    const merge = await runRig(['merge', dir, '--out', out]);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toMatch(
      /^a2a-rig: merge: run set1 is incomplete: 2 of 3 workers finished \(worker 1: no results\.json in \S+shard-1: /,
    );
    expect(merge.stderr).toContain('--partial');
    expect(merge.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it('with --partial merges what finished and says PARTIAL in every output', async () => {
    const dir = setDir('partial', [0, 2]);
    const out = join(root, 'partial-merged');
    const merge = await runRig(['merge', dir, '--out', out, '--partial']);
    expect(merge.stderr).toBe('');
    const { results, summary } = readRunFiles(out);
    expect(results.shards).toMatchObject({ partial: true, merged: [0, 2], missing: [{ index: 1 }] });
    expect(results.shards!.missing[0]!.why).toMatch(/no results\.json in .*shard-1/);
    expect(results.shards!.workers.map((w) => w.index)).toEqual([0, 2]);
    expect(capacityOf(results).series![SERIES]!.map((p) => p.workers)).toEqual([2, 2, 2]);
    // The verdict is what the merged data says; the headline says it is of 2 workers out of 3.
    const partial = /PARTIAL: 2 of 3 workers \\?\(worker 1: no results\.json in /;
    expect(summary.split('\n').slice(0, 4).join('\n')).toMatch(new RegExp(`\\*\\*${partial.source}`));
    expect(merge.stdout.split('\n').slice(1, 3).join(' ')).toMatch(partial);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(
      /<p class="headline partial">PARTIAL: 2 of 3 workers/,
    );
  });

  it('refuses a set mixed with an ordinary run', async () => {
    const dir = setDir('mixed');
    const plain = join(root, 'plain');
    mkdirSync(plain, { recursive: true });
    writeFileSync(join(plain, 'results.json'), JSON.stringify(run([scenario('agent-card')], 'plain-run')));
    const out = join(root, 'mixed-merged');
    const merge = await runRig(['merge', dir, plain, '--out', out]);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toMatch(/^a2a-rig: merge: \S+plain\/results\.json not from a --shard worker/);
    expect(existsSync(out)).toBe(false);
    unlinkSync(join(plain, 'results.json'));
  });

  it('refuses --partial for results that are not a shard set, rather than ignore it', async () => {
    const plain = join(root, 'plain-partial');
    mkdirSync(plain, { recursive: true });
    writeFileSync(join(plain, 'results.json'), JSON.stringify(run([scenario('agent-card')], 'plain-run')));
    const out = join(root, 'plain-partial-merged');
    const merge = await runRig(['merge', plain, '--out', out, '--partial']);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toMatch(/--partial applies to the workers of a --shard run/);
    expect(existsSync(out)).toBe(false);
  });
});
