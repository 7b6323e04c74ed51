// Scenarios in the user's own repository, through the real command line: a directory outside the
// rig (a temporary one, with no node_modules and no package.json) whose files import from
// 'a2a-rig' runs with --scenarios, and only its scenarios run when no name is given; a file that
// fails to load is one errored scenario with file:line:col while the others run; name clashes,
// missing and empty directories are one-line usage errors (exit 2) before anything runs.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunFiles, runRig, type CliRun } from './support/rigCli.ts';
import { writeReadmeExample } from './support/readmeExample.ts';

const FIXTURE = new URL('./fixtures/external-scenarios/', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'scenariosdir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A directory of scenario files outside the repository: the fixture's copy, plus `files`. */
function scenarioDir(name: string, files: Record<string, string> = {}, withFixture = true): string {
  const dir = join(root, name);
  if (withFixture) cpSync(FIXTURE, dir, { recursive: true });
  else mkdirSync(dir, { recursive: true });
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }
  return dir;
}

// The syntax error is on line 5, the stray comma at column 24 (1-based).
const SYNTAX_ERROR = `import { defineScenario, everyProfile } from 'a2a-rig';

export default defineScenario({
  name: 'typo',
  description: 'oops' +,
});
`;
// Plain JavaScript that throws while it loads: line 3, column 7.
const THROWS = `import { defineScenario } from 'a2a-rig';
const ready = false;
throw new TypeError('the config is missing');
`;

const good = scenarioDir('good');
const mixed = scenarioDir('mixed', { 'typo.ts': SYNTAX_ERROR, 'nested/throws.mjs': THROWS });

function expectUsageError(run: CliRun, out: string, says: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
  expect(run.stderr.trim()).toMatch(says);
  expect(existsSync(out), 'nothing written for a run that never started').toBe(false);
}

describe('a2a-rig run --scenarios DIR', () => {
  it("runs the directory's scenarios, and only those when no name is given", { timeout: 60_000 }, async () => {
    const out = join(root, 'out-good');
    const run = await runRig(['run', '--scenarios', good, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const { results } = readRunFiles(out);
    expect(results.verdict).toBe('passed');
    expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([
      ['answer-round-trips', 'passed'],
      ['one-instance', 'passed'],
    ]);
    const [roundTrips, oneInstance] = results.scenarios;
    expect(roundTrips!.checks.map((c) => c.name)).toEqual([
      'every valid answer is accepted and its task resumes',
      'p95 answer → resume ≤ 1000 ms',
    ]);
    expect(roundTrips!.metrics.answer_to_resume!.count).toBe(5);
    expect(roundTrips!.counters).toEqual({ answers_accepted: 5 });
    // ctx.log from a scenario outside the repository is kept, in order, with its time.
    expect(roundTrips!.log?.map((l) => l.line)).toEqual(
      [1, 2, 3, 4, 5].map((i) =>
        expect.stringMatching(new RegExp(`^prompt ${i}/5: resumed \\d+\\.\\d ms after the answer$`)),
      ),
    );
    expect(oneInstance!.checks).toEqual([
      {
        name: 'ctx.skip() throws the ScenarioSkipped of a2a-rig',
        ok: true,
        detail: 'ScenarioSkipped: a probe, caught',
      },
    ]);
  });

  it(
    'a file that fails to load is one errored scenario with file:line:col; the others run; the run fails',
    { timeout: 60_000 },
    async () => {
      const out = join(root, 'out-mixed');
      const run = await runRig(['run', '--scenarios', mixed, '--out', out]);
      expect(run.code, run.stderr).toBe(1);
      const { results, junit } = readRunFiles(out);
      expect(results.verdict).toBe('failed');
      const byName = new Map(results.scenarios.map((s) => [s.name, s]));
      expect([...byName.keys()].sort()).toEqual(['answer-round-trips', 'nested/throws', 'one-instance', 'typo']);
      expect(byName.get('answer-round-trips')!.verdict).toBe('passed');
      expect(byName.get('one-instance')!.verdict).toBe('passed');
      // The name it meant (read from its source), so `run typo` reports the failure.
      expect(byName.get('typo')).toMatchObject({
        verdict: 'errored',
        reason: `${join(mixed, 'typo.ts')}:5:24: Unexpected ","`,
      });
      expect(byName.get('nested/throws')).toMatchObject({
        verdict: 'errored',
        reason: `${join(mixed, 'nested/throws.mjs')}:3:7: TypeError: the config is missing`,
      });
      expect(junit.find((c) => c.name.includes('typo'))?.error).toContain('typo.ts:5:24');
      expect(byName.get('typo')!.stack).toBe(`at ${join(mixed, 'typo.ts')}:5:24`);
      expect(byName.get('nested/throws')!.stack).toContain(`${join(mixed, 'nested/throws.mjs')}:3:7`);
      // One line about the failures, and never the loader's (esbuild's) stack.
      expect(run.stderr).toContain(
        'a2a-rig: 2 scenario files failed to load (errored if selected): ' +
          `${join(mixed, 'nested/throws.mjs')}:3:7: TypeError: the config is missing, and 1 more`,
      );
      expect(run.stderr).not.toMatch(/esbuild|node_modules|^\s+at /m);
    },
  );

  it(
    'a built-in scenario stays selectable by name; the failed files are still mentioned, in one line',
    { timeout: 60_000 },
    async () => {
      const out = join(root, 'out-by-name');
      const run = await runRig(['run', 'agent-card', '--scenarios', mixed, '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      expect(readRunFiles(out).results.scenarios.map((s) => [s.name, s.verdict])).toEqual([['agent-card', 'passed']]);
      expect(run.stderr.split('\n').filter((l) => l.includes('failed to load'))).toEqual([
        'a2a-rig: 2 scenario files failed to load (errored if selected): ' +
          `${join(mixed, 'nested/throws.mjs')}:3:7: TypeError: the config is missing, ` +
          `and 1 more (a2a-rig list --scenarios ${mixed} shows each)`,
      ]);
    },
  );
});

describe('a2a-rig list --scenarios DIR', () => {
  it(
    "lists the directory's scenarios after the built-in ones, with their files; exit 0",
    { timeout: 30_000 },
    async () => {
      const run = await runRig(['list', '--scenarios', good]);
      expect(run.code, run.stderr).toBe(0);
      const names = run.stdout
        .split('\n')
        .filter((l) => /^\S/.test(l))
        .map((l) => l.split(/\s/)[0]);
      expect(names.slice(-2)).toEqual(['answer-round-trips', 'one-instance']);
      expect(names).toContain('cf1');
      expect(names).not.toContain('thrownBy');
      expect(run.stdout).toContain(
        `tags: mine, hitl · needs: hitl-prompt/v1 in the card · file: ${join(good, 'answer-round-trips.ts')}`,
      );
    },
  );

  it(
    "'a2a-rig' is the running rig even where the directory has " +
      'a node_modules/a2a-rig of its own (which is not scanned)',
    { timeout: 30_000 },
    async () => {
      const shadowed = scenarioDir('shadowed', {
        'node_modules/a2a-rig/package.json': JSON.stringify({
          name: 'a2a-rig',
          type: 'module',
          exports: { '.': './index.mjs' },
        }),
        'node_modules/a2a-rig/index.mjs': "throw new Error('the node_modules copy of a2a-rig was loaded');\n",
      });
      const run = await runRig(['list', '--scenarios', shadowed]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const names = run.stdout
        .split('\n')
        .filter((l) => /^\S/.test(l))
        .map((l) => l.split(/\s/)[0]);
      expect(names.slice(-2)).toEqual(['answer-round-trips', 'one-instance']);
    },
  );

  it(
    'shows a file that failed to load as broken, with file:line:col, in one line; exit 1',
    { timeout: 30_000 },
    async () => {
      const run = await runRig(['list', '--scenarios', mixed]);
      expect(run.code, run.stderr).toBe(1);
      const lines = run.stdout.split('\n');
      expect(lines).toContain(`${'typo'.padEnd(20)} broken: ${join(mixed, 'typo.ts')}:5:24: Unexpected ","`);
      expect(lines).toContain(
        `${'nested/throws'.padEnd(20)} broken: ` +
          `${join(mixed, 'nested/throws.mjs')}:3:7: TypeError: the config is missing`,
      );
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/^a2a-rig: 2 scenario files failed to load \(listed as broken\)/);
    },
  );
});

describe('--scenarios usage errors: one line, exit 2, nothing run', () => {
  const cases: Array<[string, () => string, (dir: string) => RegExp]> = [
    [
      'a directory that does not exist',
      () => join(root, 'no-such-dir'),
      (dir) => new RegExp(`^a2a-rig: --scenarios ${dir}: no such directory$`),
    ],
    [
      'a directory with no scenario files',
      () => scenarioDir('empty', { 'README.md': '# nothing here' }, false),
      (dir) => new RegExp(`^a2a-rig: --scenarios ${dir}: no scenario files in it`),
    ],
    [
      'a directory of helpers only',
      () => scenarioDir('helpers', { 'util.ts': 'export const x = 1;\n' }, false),
      (dir) => new RegExp(`^a2a-rig: --scenarios ${dir}: no file in it default-exports a scenario`),
    ],
    [
      'a scenario named like a built-in one',
      () =>
        scenarioDir(
          'clash',
          {
            'mine.mjs':
              `import { defineScenario, everyProfile } from 'a2a-rig';\n` +
              `export default defineScenario({ name: 'cf1', description: 'mine', tags: [], needs: {}, ` +
              'params: everyProfile({}), budgetMs: everyProfile(1000), records: { latencies: [], counters: {} }, ' +
              `async run(ctx) { ctx.check('x', true); } });\n`,
          },
          false,
        ),
      (dir) =>
        new RegExp(
          `^a2a-rig: two scenarios are named "cf1": dist/scenarios/conformance/cf1\\.js and ${dir}/mine\\.mjs$`,
        ),
    ],
    [
      'two scenarios of one name in two directories',
      () => `${good}\0${scenarioDir('twin')}`,
      () =>
        new RegExp(
          '^a2a-rig: two scenarios are named "answer-round-trips": ' +
            `${good}/answer-round-trips\\.ts and ${root}/twin/answer-round-trips\\.ts$`,
        ),
    ],
  ];
  for (const [i, [what, dirs, says]] of cases.entries()) {
    it.concurrent(what, { timeout: 30_000 }, async () => {
      const out = join(root, `usage-${i}`);
      const given = dirs().split('\0');
      const run = await runRig(['run', ...given.flatMap((d) => ['--scenarios', d]), '--out', out]);
      expectUsageError(run, out, says(given[0]!));
    });
  }
});

describe('the README example', () => {
  it(
    'runs as the README says, from a directory outside the repository, and its threshold holds',
    { timeout: 60_000 },
    async () => {
      const example = writeReadmeExample(join(root, 'readme'));
      const out = join(root, 'out-readme');
      const run = await runRig(['run', '--scenarios', example.dir, ...example.args, '--out', out]);
      expect(run.code, run.stderr).toBe(0);
      const { results } = readRunFiles(out);
      expect(results.scenarios.map((s) => [s.name, s.verdict])).toEqual([['answer-twice', 'passed']]);
      expect(results.thresholds?.map((t) => [t.expression, t.ok])).toEqual([['answer-twice:conflicts>=5', true]]);
      // Its ctx.log line is kept, and shown as the run goes.
      expect(results.scenarios[0]!.log?.map((l) => l.line)).toEqual([
        expect.stringMatching(/^5 resumes, p50 \d+\.\d ms$/),
      ]);
      expect(run.stderr).toMatch(/\[answer-twice\] 5 resumes, p50 \d+\.\d ms/);
    },
  );
});
