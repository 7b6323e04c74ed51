// A scenario author's levels, through the real CLI (`run --scenarios DIR`): a failed SHOULD check
// is a warning — the scenario passes and the run exits 0, the check keeps its level in
// results.json — `run --strict` fails it (exit 1), and a level that is no level errors the
// scenario, naming the check. The scenarios are files of their own, so nothing here measures anything.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig } from './support/rigCli.ts';

const root = mkdtempSync(join(tmpdir(), 'a2a-rig-levels-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A scenario file whose run() is `body`. */
function scenarioFile(name: string, body: string): string {
  return (
    `import { defineScenario, everyProfile } from 'a2a-rig';\n` +
    `export default defineScenario({ name: '${name}', description: 'levels', tags: [], needs: {}, ` +
    'params: everyProfile({}), budgetMs: everyProfile(5000), records: { latencies: [], counters: {} }, ' +
    `async run(ctx) { ${body} } });\n`
  );
}
const dir = join(root, 'scenarios');
mkdirSync(dir);
writeFileSync(
  join(dir, 'advised.mjs'),
  scenarioFile('advised', "ctx.check('must', true); ctx.check('advice', false, 'not taken', { level: 'SHOULD' });"),
);
writeFileSync(join(dir, 'typo.mjs'), scenarioFile('typo', "ctx.check('advice', true, undefined, { level: 'MAY' });"));
const run = (name: string, out: string, ...flags: string[]) =>
  runRig(['run', name, '--scenarios', dir, '--toxiproxy', 'none', '--out', join(root, out), ...flags]);

describe('a SHOULD check in a scenario of your own', () => {
  it.concurrent('failed, it is a warning: the scenario passes, exit 0', { timeout: 60_000 }, async () => {
    const cli = await run('advised', 'default');
    expect(cli.code, cli.stderr).toBe(0);
    const { results } = readRunFiles(join(root, 'default'));
    expect(results).toMatchObject({ verdict: 'passed', warnings: 1 });
    expect(results.scenarios[0]!.checks).toEqual([
      { name: 'must', ok: true },
      { name: 'advice', ok: false, detail: 'not taken', level: 'SHOULD' },
    ]);
    expect(cli.stdout).toContain('advised · SHOULD · advice: not taken');
    expect(cli.stderr).toContain('advised: passed with 1 warning (');
  });

  it.concurrent('run --strict: the warning fails it, exit 1', { timeout: 60_000 }, async () => {
    const cli = await run('advised', 'strict', '--strict');
    expect(cli.code, cli.stderr).toBe(1);
    const { results } = readRunFiles(join(root, 'strict'));
    expect(results.scenarios[0]).toMatchObject({
      verdict: 'failed',
      reason: 'SHOULD check failed under --strict: advice: not taken',
    });
  });

  it.concurrent('a level that is no level errors the scenario, naming the check', { timeout: 60_000 }, async () => {
    const cli = await run('typo', 'typo');
    expect(cli.code, cli.stderr).toBe(1);
    expect(readRunFiles(join(root, 'typo')).results.scenarios[0]).toMatchObject({
      verdict: 'errored',
      reason: 'check "advice": level "MAY" is not one of MUST, SHOULD, example',
    });
  });
});
