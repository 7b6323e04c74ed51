// A skip is not a pass, and CI can say so: against the reference agent without a fault backend,
// cf1 runs and passes while resume-latency (it needs faults) skips. Without --fail-on-skip that is
// exit 0 with the skip counted in the headline; with it, exit 3 and one line naming the skip.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig } from './support/rigCli.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-skip-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const ARGS = ['run', 'cf1', 'resume-latency', '--toxiproxy', 'none'];

describe('skips and --fail-on-skip', () => {
  it.concurrent('a partial skip passes by default and the headline counts it', { timeout: 60_000 }, async () => {
    const dir = join(out, 'default');
    const run = await runRig([...ARGS, '--out', dir]);
    expect(run.code, run.stderr).toBe(0);
    const { results, summary } = readRunFiles(dir);
    expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([
      ['cf1', 'passed'],
      ['resume-latency', 'skipped'],
    ]);
    expect(results.verdict).toBe('passed');
    expect(summary).toContain('1 of 2 scenarios skipped');
  });

  it.concurrent('--fail-on-skip: the same run exits 3 and names the skip', { timeout: 60_000 }, async () => {
    const dir = join(out, 'fail-on-skip');
    const run = await runRig([...ARGS, '--fail-on-skip', '--out', dir]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr.split('\n').filter((l) => l.startsWith('a2a-rig:'))).toEqual([
      'a2a-rig: 1 scenario skipped (resume-latency) and --fail-on-skip was given — exit 3',
    ]);
    expect(readRunFiles(dir).results.verdict).toBe('passed');
  });
});
