// --out is checked before anything runs, so a run that could not write its results never starts:
// each case points --target at a port where nothing listens, and the error is about --out, not
// the target. A kernel filesystem, a path that cannot be created and a directory of someone
// else's files are refused in one line with exit 2; a new directory is created, and an earlier
// run's results directory is reused.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './support/localHost.ts';
import { readRunFiles, runRig, type CliRun } from './support/rigCli.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-outdir-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function expectRefused(run: CliRun, says: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
  expect(run.stderr.trim()).toMatch(says);
  expect(run.stderr).not.toContain('ECONNREFUSED');
}

async function nowhere(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

describe('--out is checked before the run', () => {
  it('a path in /proc is refused at once (it used to hang the run)', { timeout: 90_000 }, async () => {
    const run = await runRig(
      ['run', 'agent-card', '--target', await nowhere(), '--out', '/proc/a2a-rig-results'],
      60_000,
    );
    expectRefused(run, /^a2a-rig: --out \/proc\/a2a-rig-results is on \/proc, a kernel filesystem, not storage/);
  });

  it('a path under /sys is refused', { timeout: 90_000 }, async () => {
    const run = await runRig(
      ['run', 'agent-card', '--target', await nowhere(), '--out', '/sys/kernel/a2a-rig'],
      60_000,
    );
    expectRefused(run, /^a2a-rig: --out \/sys\/kernel\/a2a-rig is on \/sys/);
  });

  it('a path that cannot be created (under a file) is refused, nothing left behind', { timeout: 90_000 }, async () => {
    const file = join(out, 'a-file');
    writeFileSync(file, 'not a directory\n');
    const run = await runRig(
      ['run', 'agent-card', '--target', await nowhere(), '--out', join(file, 'results')],
      60_000,
    );
    expectRefused(run, /^a2a-rig: --out .*a-file\/results cannot be created: ENOTDIR/);
    expect(readFileSync(file, 'utf8')).toBe('not a directory\n');
  });

  it('a directory holding other files is refused and left as it was', { timeout: 90_000 }, async () => {
    const dir = join(out, 'someone-elses');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine\n');
    const run = await runRig(['run', 'agent-card', '--target', await nowhere(), '--out', dir], 60_000);
    expectRefused(
      run,
      // eslint-disable-next-line max-len -- the refusal as printed, as one pattern
      /^a2a-rig: --out .*someone-elses holds files that are not a2a-rig results \(notes\.txt\): give a new or empty directory/,
    );
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('a new nested directory is created for the run, and reused by the next run', { timeout: 60_000 }, async () => {
    const dir = join(out, 'new', 'nested');
    const first = await runRig(['run', 'agent-card', '--toxiproxy', 'none', '--out', dir]);
    expect(first.code, first.stderr).toBe(0);
    const firstId = readRunFiles(dir).results.runId;
    const second = await runRig(['run', 'agent-card', '--toxiproxy', 'none', '--out', dir]);
    expect(second.code, second.stderr).toBe(0);
    expect(readRunFiles(dir).results.runId).not.toBe(firstId);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });
});
