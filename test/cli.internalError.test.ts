// A bug in the rig is not a failed check: exit 4 (not 1), one line on stderr naming the error and
// where its stack is, no stack frames on stderr, and the stack in error.log of the results
// directory. The bug is planted by a preload (test/support/plantedBug.mjs) so the rig's code is
// the one that ships.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRig } from './support/rigCli.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-internal-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
const preload = new URL('./support/plantedBug.mjs', import.meta.url).pathname;

describe('an internal error', () => {
  it('exits 4 with one line and the stack in <out>/error.log', { timeout: 60_000 }, async () => {
    const dir = join(out, 'run');
    const run = await runRig(['run', 'agent-card', '--toxiproxy', 'none', '--out', dir], 60_000, {
      NODE_OPTIONS: `--import ${preload}`,
      CI: 'true',
    });
    expect(run.code, run.stderr).toBe(4);
    const errorLines = run.stderr.split('\n').filter((l) => l.startsWith('a2a-rig:'));
    expect(errorLines).toEqual([
      'a2a-rig: internal error: TypeError: planted bug: ' +
        `cannot serialise the results (stack in ${join(dir, 'error.log')})`,
    ]);
    expect(run.stderr, 'no stack frames on stderr').not.toMatch(/^\s+at /m);
    const log = readFileSync(join(dir, 'error.log'), 'utf8');
    expect(log).toContain('TypeError: planted bug: cannot serialise the results');
    expect(log).toMatch(/^\s+at .*writeResults/m);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
  });
});
