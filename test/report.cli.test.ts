// The gate verbs as CI runs them, through bin/a2a-rig.js: exit codes 0 / 1 / 2 (and compare's 3), merge
// and thresholds, with what broke named on stderr and the Markdown on stdout.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../rig/metrics/latencyHistogram.ts';
import type { RecordedMeasures } from '../rig/results/metricNames.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { repoRoot } from './support/proxyBackends.ts';
import { histogramOf, run, samples, scenario, writeRunDir } from './support/runResultFixture.ts';

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion; the timeout kills it, so no child outlives the test. */
function runCli(args: string[], timeoutMs = 20_000): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'bin/a2a-rig.js'), ...args],
      { cwd: repoRoot, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const cli = (args: string[], timeoutMs?: number) => runCli(args, timeoutMs);
const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-gate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writeRun = (name: string, result: RunResult) => writeRunDir(dir, name, result);

const latencies = samples(2_000, 20_000, 400_000, 3);
// Declared as the scenario declares it: an undeclared counter is not judged, and compare exits 3.
const records: RecordedMeasures = { latencies: ['resume_latency'], counters: { answers_per_s: 'throughput' } };
const baseline = writeRun(
  'baseline',
  run(
    [scenario('load', { latencies: { resume_latency: latencies }, counters: { answers_per_s: 500 }, records })],
    'base',
  ),
);
const same = writeRun(
  'same',
  run(
    [scenario('load', { latencies: { resume_latency: latencies }, counters: { answers_per_s: 500 }, records })],
    'same',
  ),
);
const doctored = writeRun(
  'doctored',
  run(
    [
      scenario('load', {
        latencies: { resume_latency: latencies.map((us) => us * 1.5) },
        counters: { answers_per_s: 500 },
        records,
      }),
    ],
    'doctored',
  ),
);

describe('a2a-rig compare', () => {
  // One run a side, judged as on a dedicated quiet machine: a shared one judges only gross changes
  // from one run a side (test/report.compare.test.ts), and these tests are about the exit codes.
  const cli = (args: string[]) => runCli([...args, '--quiet-machine']);
  it('exits 0 for an equal run and prints the table', async () => {
    const result = await cli(['compare', '--baseline', join(baseline, 'results.json'), '--current', same]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^# a2a-rig compare — no regression/);
    expect(result.stdout).toContain('| load | resume\\_latency p95 |');
  });

  it('exits 1 for a doctored regression and names it on stderr', async () => {
    const result = await cli(['compare', '--baseline', baseline, '--current', doctored]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('**REGRESSION**');
    expect(result.stderr).toMatch(
      /^regression: load resume_latency p95: [\d.]+ ms → [\d.]+ ms \(×1\.50 \[1\.\d\d, 1\.\d\d\]\)$/m,
    );
    // The same run passes once the tolerance allows it (the whole interval inside ±it: no change).
    const wide = ['--tolerance', 'p50=+100%,p95=+100%,p99=+100%'];
    expect((await cli(['compare', '--baseline', baseline, '--current', doctored, ...wide])).code).toBe(0);
  });

  it('exits 3 when a row could not be judged, never 0, unless --allow-inconclusive', async () => {
    // 40 samples cannot bound a p95 or a p99: those rows are inconclusive, and that must not read green.
    const thin = (id: string, scale: number) =>
      writeRun(
        id,
        run(
          [scenario('load', { latencies: { resume_latency: samples(40, 2_000, 4_000, 5).map((us) => us * scale) } })],
          id,
        ),
      );
    const thinBase = thin('thin-base', 1);
    const result = await cli(['compare', '--baseline', thinBase, '--current', thin('thin-same', 1)]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(
      /^# a2a-rig compare — not judged: 2 rows inconclusive or not compared, no regression among the rest/,
    );
    const why = 'too few samples to bound p99 \\(baseline n=40, needs 368\\)';
    expect(result.stderr).toMatch(new RegExp(`^not judged: load resume_latency p99 \\(inconclusive\\): ${why}$`, 'm'));
    const allowed = await cli([
      'compare',
      '--baseline',
      thinBase,
      '--current',
      thin('thin-same2', 1),
      '--allow-inconclusive',
    ]);
    expect(allowed.code).toBe(0);
    // A regression among the judged rows still exits 1.
    expect((await cli(['compare', '--baseline', thinBase, '--current', thin('thin-slow', 5)])).code).toBe(1);
  });

  it('exits 2 with one line for a missing file, a foreign schema or a bad tolerance', async () => {
    const missing = await cli(['compare', '--baseline', join(dir, 'nope.json'), '--current', same]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([
      `a2a-rig: ${join(dir, 'nope.json')} does not exist: give a results.json or the directory a run wrote`,
    ]);
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, JSON.stringify({ schema: 'a2a-rig/results@0', scenarios: [] }));
    const wrong = await cli(['compare', '--baseline', foreign, '--current', same]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('schema is "a2a-rig/results@0", expected "a2a-rig/results@1"');
    expect((await cli(['compare', '--baseline', baseline, '--current', same, '--tolerance', 'p95=lots'])).code).toBe(2);
  });
});

describe('a2a-rig merge', () => {
  it('writes the union of the runs, re-judging their thresholds on it, and exits 1 when one breaks', async () => {
    const a = samples(500, 1_000, 9_000, 31);
    const b = samples(500, 60_000, 90_000, 32);
    // Each worker's p90 is under 100 ms, and so is the union's; worker a's p75 is under 10 ms, the union's is not.
    const runA = run([scenario('load', { latencies: { resume_latency: a }, counters: { answers: 500 } })], 'worker-a');
    runA.thresholds = [{ expression: 'resume_latency.p90<100', ok: true, actual: 8, detail: 'fixture' }];
    const dirA = writeRun('worker-a', runA);
    const dirB = writeRun(
      'worker-b',
      run([scenario('load', { latencies: { resume_latency: b }, counters: { answers: 500 } })], 'worker-b'),
    );
    const out = join(dir, 'merged');
    const result = await cli(['merge', dirA, dirB, '--out', out, '--threshold', 'resume_latency.p75<10']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^threshold broken: resume_latency\.p75<10 — [\d.]+ ms \(n=1000 in load\), needs < 10 ms$/m,
    );
    for (const file of ['results.json', 'junit.xml', 'summary.md']) expect(existsSync(join(out, file))).toBe(true);
    const merged = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
    const union = histogramOf([...a, ...b]);
    expect(histogramOf(a).percentileUs(75)).toBeLessThan(10_000);
    expect(LatencyHistogram.decode(merged.scenarios[0]!.metrics.resume_latency!.hdr).percentileUs(75)).toBe(
      union.percentileUs(75),
    );
    expect(merged.scenarios[0]!.counters.answers).toBe(1_000);
    expect(merged.thresholds!.map((t) => [t.expression, t.ok])).toEqual([
      ['resume_latency.p90<100', true],
      ['resume_latency.p75<10', false],
    ]);
    expect(merged.mergedFrom!.map((m) => m.runId)).toEqual(['worker-a', 'worker-b']);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('Merged from 2 runs');
  });

  it('refuses runs of different agents in one line (exit 2), and merges them with --force, recording it', async () => {
    const of = (runId: string, agentVersion: string) => {
      const r = run([scenario('load', { latencies: { resume_latency: samples(50, 1_000, 9_000, 41) } })], runId);
      return writeRun(runId, { ...r, target: { ...r.target, agentName: 'agent', agentVersion } });
    };
    const [older, newer] = [of('agent-1.0', '1.0.0'), of('agent-1.1', '1.1.0')];
    const refused = await cli(['merge', older, newer, '--out', join(dir, 'refused')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'a2a-rig: cannot merge runs of different agents or rigs: target.agentVersion: ' +
        `"1.0.0" in ${join(older, 'results.json')}; ` +
        `"1.1.0" in ${join(newer, 'results.json')}; pass --force to merge them anyway\n`,
    );
    expect(existsSync(join(dir, 'refused'))).toBe(false);
    const out = join(dir, 'forced');
    const forced = await cli(['merge', older, newer, '--out', out, '--force']);
    expect(forced.code).toBe(0);
    const merged = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
    expect(merged.mergeForced!.differences).toEqual([
      `target.agentVersion: "1.0.0" in ${join(older, 'results.json')}; "1.1.0" in ${join(newer, 'results.json')}`,
    ]);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain(
      '**Forced merge** of runs that differ: target.agentVersion',
    );
  });

  it('refuses a threshold naming nothing the merged scenarios record, before writing anything (exit 2)', async () => {
    const records = { latencies: ['resume_latency'], counters: { answers: 'tally' as const } };
    const part = (runId: string) =>
      writeRun(
        runId,
        run(
          [
            scenario('load', {
              latencies: { resume_latency: samples(50, 1_000, 9_000, 43) },
              counters: { answers: 5 },
              records,
            }),
          ],
          runId,
        ),
      );
    const out = join(dir, 'misnamed');
    const result = await cli([
      'merge',
      part('declared-a'),
      part('declared-b'),
      '--out',
      out,
      '--threshold',
      'answers_rejected<5',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'a2a-rig: threshold "answers_rejected<5" names nothing this run can record: ' +
        'no scenario of this run records a counter answers_rejected; known: answers\n',
    );
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 on a directory without results', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty, { recursive: true });
    const result = await cli(['merge', empty, '--out', join(dir, 'never')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^a2a-rig: cannot read .*empty\/results\.json: ENOENT\n$/);
  });
});

describe('a2a-rig run --threshold', () => {
  it('refuses a bad expression before running anything (exit 2, naming it)', async () => {
    const result = await cli(['run', 'agent-card', '--threshold', 'resume_latency.p95<<1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^a2a-rig: bad threshold "resume_latency\.p95<<1"/);
  });

  it(
    'refuses a threshold naming nothing the selected scenarios record, ' + 'before running anything (exit 2, one line)',
    async () => {
      const out = join(dir, 'never-run');
      const result = await cli([
        'run',
        'agent-card',
        'cf4',
        '--toxiproxy',
        'none',
        '--out',
        out,
        '--threshold',
        'checks.rate>=1',
        '--threshold',
        'p95<1000',
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'a2a-rig: threshold "p95<1000" names nothing this run can record: ' +
          'no scenario of this run records a counter p95; known: trials\n',
      );
      expect(result.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
    },
  );

  it(
    'judges thresholds at the end of a real run: ' + 'exit 1 naming the broken one, recorded in all three files',
    async () => {
      const out = join(dir, 'run');
      const result = await cli(
        [
          'run',
          'agent-card',
          '--toxiproxy',
          'none',
          '--out',
          out,
          '--threshold',
          'checks.rate>=1',
          '--threshold',
          'agent-card:checks.rate>1',
        ],
        60_000,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^threshold broken: agent-card:checks\.rate>1 — 1 \(\d+\/\d+ passed\), needs > 1$/m,
      );
      expect(result.stderr).not.toContain('threshold broken: checks.rate>=1');
      const written = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResult;
      expect(written.scenarios.map((s) => s.verdict)).toEqual(['passed']);
      expect(written.verdict).toBe('failed');
      expect(written.thresholds!.map((t) => t.ok)).toEqual([true, false]);
      expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain(
        '<testcase classname="a2a-rig.thresholds" name="agent-card:checks.rate&gt;1" time="0">',
      );
      expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('| `agent-card:checks.rate>1` | BROKEN |');
    },
  );
});
