// Not judged is not passed, through the real CLI: a scenario with a check judged neither way (and
// none failed) is inconclusive, and the run exits 3 with one line naming it, NOT JUDGED in its
// summary and a skipped junit testcase; --allow-inconclusive makes it 0; a failed check beside it
// still fails the run (1). The scenarios are files of their own, so nothing here measures anything.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig } from './support/rigCli.ts';

const root = mkdtempSync(join(tmpdir(), 'a2a-rig-inconclusive-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A scenario file that records a passed check, one not judged, and (`fails`) a failed one. */
function scenarioFile(name: string, fails: boolean): string {
  return (
    `import { defineScenario, everyProfile } from 'a2a-rig';\n` +
    `export default defineScenario({ name: '${name}', description: 'a tax not judged', tags: [], needs: {}, ` +
    'params: everyProfile({}), budgetMs: everyProfile(5000), records: { latencies: [], counters: {} }, ' +
    `async run(ctx) { ctx.check('judged', true); ctx.notJudged('tax', 'the interval straddles the bound');` +
    `${fails ? " ctx.check('broke', false, 'it did');" : ''} } });\n`
  );
}
const dir = join(root, 'scenarios');
mkdirSync(dir);
writeFileSync(join(dir, 'unsure.mjs'), scenarioFile('unsure', false));
writeFileSync(join(dir, 'unsure-and-broken.mjs'), scenarioFile('unsure-and-broken', true));
const run = (name: string, out: string, ...flags: string[]) =>
  runRig(['run', name, '--scenarios', dir, '--toxiproxy', 'none', '--out', join(root, out), ...flags]);

describe('an inconclusive scenario', () => {
  it.concurrent('exits 3, naming it; NOT JUDGED in the summary, a junit skip', { timeout: 60_000 }, async () => {
    const cli = await run('unsure', 'default');
    expect(cli.code, cli.stderr).toBe(3);
    expect(cli.stderr).toContain('a2a-rig: Nothing failed, but 1 scenario (unsure) could not be judged either way.');
    const { results, summary, junit } = readRunFiles(join(root, 'default'));
    expect(results.verdict).toBe('inconclusive');
    expect(results.scenarios[0]!.checks[1]).toEqual({
      name: 'tax',
      ok: false,
      judged: false,
      detail: 'the interval straddles the bound',
    });
    expect(summary).toMatch(/^# a2a-rig NOT JUDGED/);
    expect(junit).toEqual([{ name: 'unsure', skipped: 'not judged: tax: the interval straddles the bound' }]);
  });

  it.concurrent('--allow-inconclusive: exit 0, still NOT JUDGED', { timeout: 60_000 }, async () => {
    const cli = await run('unsure', 'allowed', '--allow-inconclusive');
    expect(cli.code, cli.stderr).toBe(0);
    expect(readRunFiles(join(root, 'allowed')).summary).toMatch(/^# a2a-rig NOT JUDGED/);
  });

  it.concurrent('a failed check beside it fails the run: exit 1', { timeout: 60_000 }, async () => {
    const cli = await run('unsure-and-broken', 'broken');
    expect(cli.code, cli.stderr).toBe(1);
    expect(readRunFiles(join(root, 'broken')).results.scenarios[0]!.verdict).toBe('failed');
  });
});
