// The command line's small things, through the real CLI: --version prints the rig's version; a
// usage error points to the help of the verb it happened in; conform's help offers none of the
// embedded agent's options (conform always names its agent with --target); an unknown
// --agent-fault is refused before anything starts, naming the flag it came in.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../rig/agent/faults.ts';
import { runRig } from './support/rigCli.ts';

const out = mkdtempSync(join(tmpdir(), 'a2a-rig-usage-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

describe('a2a-rig --version', () => {
  it.concurrent('prints the version from package.json and exits 0', async () => {
    const run = await runRig(['--version']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${VERSION}\n`);
  });
});

describe('a usage error points to the help of its verb', () => {
  // One verb from each file that registers verbs; conform and compare fail on their mandatory option first.
  const cases: Array<[string[], string]> = [
    [['run', '--no-such-flag'], "error: unknown option '--no-such-flag'"],
    [['conform', '--no-such-flag'], "error: required option '--target <url>' not specified"],
    [['compare', '--baseline', 'a', '--current', 'b', '--no-such-flag'], "error: unknown option '--no-such-flag'"],
    [['agent', '--no-such-flag'], "error: unknown option '--no-such-flag'"],
  ];
  for (const [args, error] of cases) {
    it.concurrent(args.join(' '), async () => {
      const run = await runRig(args);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([error, `(run a2a-rig ${args[0]} --help for usage)`]);
    });
  }

  it.concurrent('an unknown verb still points to the list of verbs', async () => {
    const run = await runRig(['no-such-verb']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      "error: unknown command 'no-such-verb'",
      '(run a2a-rig --help for usage)',
    ]);
  });
});

describe('conform --help', () => {
  it.concurrent("offers none of the embedded agent's options, which run offers", async () => {
    const [conform, run] = await Promise.all([runRig(['conform', '--help']), runRig(['run', '--help'])]);
    expect(conform.code).toBe(0);
    expect(run.code).toBe(0);
    for (const flag of ['--agent-fault', '--env', '--agent-image']) {
      expect(conform.stdout, flag).not.toContain(flag);
      expect(run.stdout, flag).toContain(flag);
    }
    for (const flag of ['--target', '--threshold', '--out', '--toxic', '--param', '--profile'])
      expect(conform.stdout, flag).toContain(flag);
    // What smoke takes on a 2-core box (docs/testing.md, "What the tests were written against"), not
    // "about a minute".
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(
      'smoke (every scenario in ~2.5 min: ~40 s, and ~105 s for the six dos ones)',
    );
    expect(run.stdout).not.toMatch(/~1 min|about a minute/);
  });

  it.concurrent('and conform refuses --agent-fault as an option it does not have', async () => {
    const run = await runRig(['conform', '--target', 'http://127.0.0.1:9', '--agent-fault', 'skip-validation']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("error: unknown option '--agent-fault'\n(run a2a-rig conform --help for usage)");
  });
});

describe('--agent-fault', () => {
  it.concurrent(
    'an unknown name is refused before anything starts, naming --agent-fault and the known faults',
    async () => {
      const dir = join(out, 'unknown-fault');
      const run = await runRig(['run', 'cf1', '--agent-fault', 'nope', '--out', dir]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `a2a-rig: unknown --agent-fault "nope"; known faults: ${Object.keys(FAULTS).join(', ')}\n`,
      );
      expect(run.stderr).not.toContain('--fault "');
      expect(existsSync(dir), 'nothing ran, nothing was written').toBe(false);
    },
  );
});
