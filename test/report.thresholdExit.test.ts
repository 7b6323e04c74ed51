// A threshold its samples cannot judge, through bin/a2a-rig.js: exit 3 with why on stderr and a
// skipped junit testcase, never 0 and never 1; --allow-inconclusive makes it 0, and a broken
// threshold beside it still exits 1. merge judges thresholds as run does (one evaluateThreshold).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../rig/results/runResult.ts';
import { runRig } from './support/rigCli.ts';
import { run, samples, scenario, writeRunDir } from './support/runResultFixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-not-judged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writeRun = (name: string, result: RunResult) => writeRunDir(dir, name, result);

describe('a threshold not judged', () => {
  // A p99 from 40 samples cannot say whether it is under 1 s: not judged exits 3, never 0, and
  // --allow-inconclusive makes it 0; a broken threshold beside it still exits 1.
  it('exits 3 on a threshold its samples cannot judge, 0 when that is allowed', async () => {
    const few = writeRun(
      'few',
      run([scenario('load', { latencies: { resume_latency: samples(40, 1_000, 9_000, 5) } })], 'few'),
    );
    const undecided = await runRig([
      'merge',
      few,
      '--out',
      join(dir, 'undecided'),
      '--threshold',
      'resume_latency.p99<1000',
    ]);
    expect(undecided.code).toBe(3);
    expect(undecided.stderr).toMatch(/^threshold not judged: resume_latency\.p99<1000 — .*n=40/m);
    expect(undecided.stderr).toMatch(
      /^a2a-rig: Nothing failed, but 1 threshold could not be judged either way\. .*exit with code 3/m,
    );
    expect(readFileSync(join(dir, 'undecided', 'junit.xml'), 'utf8')).toMatch(
      /name="resume_latency\.p99&lt;1000" time="0">\n {4}<skipped message=/,
    );
    const allowed = ['--threshold', 'resume_latency.p99<1000', '--allow-inconclusive'];
    expect((await runRig(['merge', few, '--out', join(dir, 'allowed'), ...allowed])).code).toBe(0);
    const broken = ['--threshold', 'resume_latency.p50<0.5', '--allow-inconclusive'];
    expect((await runRig(['merge', few, '--out', join(dir, 'broken'), ...allowed, ...broken])).code).toBe(1);
  });
});
