// The real command line against an agent whose every string is hostile (test/support/hostileAgent.ts:
// ESC sequences, BEL, CR, C1, U+202E, U+FFFE, U+FFFF, lone surrogates, NUL in its card name, skill
// names, status texts and error messages): nothing it says reaches stdout or stderr raw (tab and
// newline aside), summary.md and report.html are clean, junit.xml is well-formed XML (saxes), and
// results.json still parses and keeps the agent's strings exactly. compare and merge over such a
// results.json, and a user error quoting one, are clean too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE, rawControls, startHostileAgent, type HostileAgent } from './support/hostileAgent.ts';
import { readRunFiles, runRig, type CliRun } from './support/rigCli.ts';
import { run, scenario } from './support/runResultFixture.ts';

let agent: HostileAgent;
let out: string;
beforeAll(async () => {
  agent = await startHostileAgent();
  out = mkdtempSync(join(tmpdir(), 'a2a-rig-hostile-strings-'));
});
afterAll(async () => {
  await agent?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

function expectCleanTerminal(cli: CliRun): void {
  expect(rawControls(cli.stdout), cli.stdout).toEqual([]);
  expect(rawControls(cli.stderr), cli.stderr).toEqual([]);
}

/** The run's files: summary.md and report.html clean, junit.xml parsed strictly (readRunFiles), results.json raw. */
function expectCleanFiles(dir: string) {
  const files = readRunFiles(dir);
  expect(rawControls(files.summary)).toEqual([]);
  expect(rawControls(readFileSync(join(dir, 'report.html'), 'utf8'))).toEqual([]);
  expect(rawControls(readFileSync(join(dir, 'junit.xml'), 'utf8'))).toEqual([]);
  // results.json is data for programs: the agent's name exactly as it sent it, lone surrogates included.
  expect(files.results.target.agentName).toBe(`hostile ${HOSTILE}`);
  return files;
}

describe('the rig against an agent whose strings carry control characters', () => {
  it(
    'conform: the terminal, summary.md, ' + 'report.html and junit.xml show them escaped; results.json keeps them',
    async () => {
      const dir = join(out, 'conform');
      const cli = await runRig(['conform', '--target', agent.url, '--out', dir]);
      expect(cli.code, cli.stderr).toBe(1);
      expectCleanTerminal(cli);
      // Shown, not dropped: the user sees something was there (plain text on the terminal, no Markdown escapes).
      expect(cli.stdout).toContain('hostile \\u001b[31mRED');
      expect(cli.stderr).toContain('\\u001b[31mRED\\u001b[0m\\u0007BEL\\u000dCR');
      const { results, junit } = expectCleanFiles(dir);
      const reasons = results.scenarios.map((s) => s.reason ?? '').filter((r) => r.includes(HOSTILE));
      expect(reasons.length).toBeGreaterThan(0);
      expect(junit.length).toBe(results.scenarios.length);
      expect(junit.some((c) => (c.skipped ?? c.failure ?? '').includes('\\u202eRTL'))).toBe(true);
    },
    90_000,
  );

  it('run agent-card: the failed check quoting the agent is escaped everywhere', async () => {
    const dir = join(out, 'agent-card');
    const cli = await runRig(['run', 'agent-card', '--target', agent.url, '--out', dir]);
    expect(cli.code, cli.stderr).toBe(1);
    expectCleanTerminal(cli);
    const { results, junit } = expectCleanFiles(dir);
    const failed = results.scenarios[0]!.checks.find((c) => !c.ok);
    expect(failed?.detail).toContain(`error ${HOSTILE}`);
    expect(junit[0]!.failure).toBeDefined();
  }, 90_000);

  it('run cf1: "nothing was tested" quotes the skip reason on stderr, escaped; exit 3', async () => {
    const dir = join(out, 'cf1');
    const cli = await runRig(['run', 'cf1', '--target', agent.url, '--out', dir]);
    expect(cli.code, cli.stderr).toBe(3);
    expectCleanTerminal(cli);
    expect(cli.stderr).toMatch(/^a2a-rig: nothing was tested: .*status \\u001b\[31mRED.* — exit 3$/m);
    expectCleanFiles(dir);
  }, 90_000);

  it('merge and compare over a results.json that carries them, and a user error quoting one', async () => {
    const hostile = (name: string, us: number) => {
      const r = run(
        [
          scenario(`s ${HOSTILE}`, {
            verdict: 'failed',
            reason: `r ${HOSTILE}`,
            latencies: { [`m ${HOSTILE}`]: Array.from({ length: 2000 }, () => us) },
          }),
        ],
        name,
      );
      const dir = mkdtempSync(join(out, `${name}-`));
      writeFileSync(
        join(dir, 'results.json'),
        JSON.stringify({ ...r, target: { ...r.target, agentName: `hostile ${HOSTILE}` } }),
      );
      return dir;
    };
    const slow = hostile('slow', 90_000);
    const fast = hostile('fast', 1_000);
    const merged = await runRig([
      'merge',
      fast,
      slow,
      '--out',
      join(out, 'merged'),
      '--force',
      '--threshold',
      'checks.rate>=1',
    ]);
    expect(merged.code, merged.stderr).toBe(1);
    expectCleanTerminal(merged);
    expect(merged.stderr).toContain('threshold broken');
    expectCleanFiles(join(out, 'merged'));

    const compared = await runRig(['compare', '--baseline', fast, '--current', slow]);
    expect(compared.code, compared.stderr).toBe(1);
    expectCleanTerminal(compared);
    expect(compared.stderr).toContain('regression: s \\u001b[31mRED');

    const notResults = mkdtempSync(join(out, 'schema-'));
    writeFileSync(join(notResults, 'results.json'), JSON.stringify({ schema: HOSTILE }));
    const refused = await runRig(['compare', '--baseline', notResults, '--current', slow]);
    expect(refused.code).toBe(2);
    expectCleanTerminal(refused);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  }, 180_000);
});
