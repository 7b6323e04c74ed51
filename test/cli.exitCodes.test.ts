// The command line's exit codes, through the real CLI: 2 and one line saying what to do for what a
// user can get wrong (nothing written), 1 when a check failed, 0 when everything passed; the result
// files are written whenever a run happened.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig, type CliRun } from './support/rigCli.ts';
import { freePort } from './support/localHost.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-exit-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Exit 2, stderr is one line (commander may add its usage hint) and no stack trace, nothing written. */
function expectUsageError(run: CliRun, dir: string, says: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines[0]).toMatch(says);
  expect(
    lines.filter((l) => !/^\(run a2a-rig \w+ --help for usage\)$/.test(l)),
    run.stderr,
  ).toHaveLength(1);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  expect(existsSync(dir), 'no results for a run that never started').toBe(false);
}

describe('exit code 2: usage and environment errors, one line', () => {
  const cases: Array<[string, () => Promise<string[]>, RegExp]> = [
    [
      'an unknown scenario name',
      async () => ['run', 'no-such-scenario'],
      /^a2a-rig: no scenario or tag named "no-such-scenario"; run "a2a-rig list"/,
    ],
    [
      'a bad --profile',
      async () => ['run', '--profile', 'huge'],
      /--profile.*'huge' is invalid\. Allowed choices are smoke, ci, full/,
    ],
    [
      '--target that is not a URL',
      async () => ['run', '--target', 'not-a-url'],
      /^a2a-rig: --target must be an http\(s\) URL/,
    ],
    [
      '--target where nothing listens',
      async () => ['run', 'agent-card', '--target', `http://127.0.0.1:${await freePort()}`],
      // eslint-disable-next-line max-len -- the message the rig prints when nothing listens, as one pattern
      /^a2a-rig: cannot read the agent card: GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json: .*ECONNREFUSED/,
    ],
    [
      '--agent-fault with --target',
      async () => ['run', '--target', 'http://127.0.0.1:9', '--agent-fault', 'skip-validation'],
      /^a2a-rig: --agent-fault applies to the embedded agent only/,
    ],
    [
      'an --agent-fault the embedded agent does not know',
      async () => ['run', 'cf1', '--agent-fault', 'no-such-fault'],
      /^a2a-rig: unknown --agent-fault "no-such-fault"; known faults: accept-duplicates, /,
    ],
  ];
  for (const [i, [what, args, says]] of cases.entries()) {
    it.concurrent(what, async () => {
      const dir = join(out, `usage-${i}`);
      expectUsageError(await runRig([...(await args()), '--out', dir]), dir, says);
    });
  }
});

describe('exit codes 1 and 0: a run happened and wrote its results', () => {
  it('1 when a check failed (cf3 against an agent that skips validation)', { timeout: 60_000 }, async () => {
    const dir = join(out, 'failed');
    const run = await runRig(['run', 'cf3', '--agent-fault', 'skip-validation', '--out', dir]);
    expect(run.code, run.stderr).toBe(1);
    const { results, junit } = readRunFiles(dir);
    expect(results.verdict).toBe('failed');
    expect(results.target.agentFaults).toEqual(['skip-validation']);
    expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([['cf3', 'failed']]);
    expect(junit[0].failure).toContain('422');
  });

  it('0 when every check passed (cf1 against the correct agent)', { timeout: 60_000 }, async () => {
    const dir = join(out, 'passed');
    const run = await runRig(['run', 'cf1', '--out', dir]);
    expect(run.code, run.stderr).toBe(0);
    const { results } = readRunFiles(dir);
    expect(results.verdict).toBe('passed');
    expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([['cf1', 'passed']]);
    expect(run.stdout).toContain(`\n  ${join(dir, 'results.json')}\n`);
  });
});
