// The catalog's parts that need no command line: where a load failure is reported (file:line:col,
// from each form the loader throws), which scenarios a run selects with and without names, and a
// catalog of a directory with a broken file (here as the built-in directory, which vitest imports
// itself; the command line's module hooks are tested in scenarios.external.test.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { everyProfile, type ScenarioDefinition } from '../rig/engine/kit/defineScenario.ts';
import { failureText, loadCatalog, loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { failureOf } from '../rig/engine/scenarioLoadFailure.ts';

const root = mkdtempSync(join(tmpdir(), 'scenariosdir-catalog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, source: string): string {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, source);
  return path;
}

describe('failureOf: file:line:col (1-based) and one line, never the loader stack', () => {
  const dir = join(root, 'scenarios');
  const file = join(dir, 'typo.ts');

  it('an esbuild error thrown in this thread: its first error and location (0-based column made 1-based)', () => {
    const err = Object.assign(new Error('Transform failed with 1 error:\nignored'), {
      errors: [{ text: 'Expected ";" but found "x"', location: { file, line: 4, column: 9 } }],
    });
    expect(failureOf(file, err, dir)).toEqual({ file, line: 4, column: 10, message: 'Expected ";" but found "x"' });
  });

  it('an esbuild error from the module hooks thread: read from its message, the first of several', () => {
    const err = Object.assign(
      new Error(
        `Transform failed with 2 errors:\n${file}:5:23: ERROR: Unexpected ","\n${file}:9:1: ERROR: Unexpected "}"`,
      ),
      { name: 'TransformError' },
    );
    err.stack =
      `TransformError: ${err.message}\n` + '    at failureErrorWithLog (/x/node_modules/esbuild/lib/main.js:1752:15)';
    expect(failureText(failureOf(file, err, dir))).toBe(`${file}:5:24: Unexpected ","`);
  });

  it(
    "a throw while loading: the first frame in the scenario's directory, " +
      "the error's name kept, frames kept as its stack",
    () => {
      const err = new RangeError('bad size');
      err.stack = [
        'RangeError: bad size',
        '    at check (/opt/a2a-rig/rig/engine/defineScenario.ts:63:42)',
        `    at <anonymous> (${join(dir, 'lib/sizes.ts')}:7:11)`,
        `    at file://${file}:2:16`,
        '    at ModuleJob.run (node:internal/modules/esm/module_job:325:25)',
      ].join('\n');
      expect(failureOf(file, err, dir)).toEqual({
        file: join(dir, 'lib/sizes.ts'),
        line: 7,
        column: 11,
        message: 'RangeError: bad size',
        stack:
          'RangeError: bad size\n' +
          `    at <anonymous> (${join(dir, 'lib/sizes.ts')}:7:11)\n` +
          `    at file://${file}:2:16`,
      });
    },
  );

  it("a JavaScript syntax error Node reports without a position: node --check's line and caret", () => {
    const js = write('js/broken.mjs', "import { x } from 'a2a-rig';\n\nconst a = [1, 2;\n");
    const err = new SyntaxError("Unexpected token ';'");
    err.stack =
      "SyntaxError: Unexpected token ';'\n    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)";
    expect(failureText(failureOf(js, err, dirname(js)))).toBe(`${js}:3:16: SyntaxError: Unexpected token ';'`);
  });

  it('an import of a name the module does not export: the line that imports it', () => {
    const js = write('js/names.mjs', "// a scenario\nimport { defineScenario,\n  everyProfil } from 'a2a-rig';\n");
    const err = new SyntaxError("The requested module 'a2a-rig' does not provide an export named 'everyProfil'");
    expect(failureOf(js, err, dirname(js))).toMatchObject({ line: 3, column: 3 });
  });

  it('a module that cannot be found: the import naming it, in the file that imports it', () => {
    const ts = write('ts/imports.ts', "import { a } from './lib/a.ts';\nimport { b } from './lib/gone.ts';\n");
    const err = Object.assign(new Error(`Cannot find module '${join(root, 'ts/lib/gone.ts')}' imported from ${ts}`), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    expect(failureOf(ts, err, dirname(ts))).toMatchObject({ file: ts, line: 2, column: 19 });
  });

  it('anything else: the file alone, the message on one line', () => {
    expect(failureText(failureOf(file, 'a string thrown\nover two lines', dir))).toBe(
      `${file}: a string thrown over two lines`,
    );
  });
});

function scenario(name: string, extra: Partial<ScenarioDefinition<object>> = {}): ScenarioDefinition<object> {
  return {
    name,
    description: name,
    tags: [],
    needs: {},
    params: everyProfile({}),
    budgetMs: everyProfile(1000),
    records: { latencies: [], counters: {} },
    run: async () => {},
    ...extra,
  };
}

describe('selectScenarios', () => {
  const all = [
    scenario('cf1', { tags: ['conformance'] }),
    scenario('cf7', { tags: ['conformance'], requires: ['cf1'] }),
    scenario('mine', { requires: ['cf7'] }),
    scenario('other'),
  ];
  const names = (list: ScenarioDefinition<object>[]) => list.map((s) => s.name);

  it(
    'no names: all, or the defaults given (the --scenarios directories), ' + 'with what they require, in catalog order',
    () => {
      expect(names(selectScenarios(all, []))).toEqual(['cf1', 'cf7', 'mine', 'other']);
      expect(names(selectScenarios(all, [], [all[2]!]))).toEqual(['cf1', 'cf7', 'mine']);
    },
  );

  it('names and tags select from the whole catalog, whatever the defaults', () => {
    expect(names(selectScenarios(all, ['other'], [all[2]!]))).toEqual(['other']);
    expect(names(selectScenarios(all, ['conformance'], [all[2]!]))).toEqual(['cf1', 'cf7']);
    expect(() => selectScenarios(all, ['nope'])).toThrow('no scenario or tag named "nope"');
  });
});

describe('loadCatalog of a directory with a broken file', () => {
  const dir = join(root, 'catalog');
  const good = (name: string) =>
    `export default { name: '${name}', description: 'd', tags: [], needs: {}, ` +
    'params: { smoke: {}, ci: {}, full: {} }, budgetMs: { smoke: 1000, ci: 1000, full: 1000 }, ' +
    `records: { latencies: [], counters: {} }, async run(ctx) { ctx.check('ok', true); } };\n`;
  write('catalog/a-good.mjs', good('a-good'));
  write('catalog/sub/b-throws.mjs', "const meant = { name: 'b-meant' };\nthrow new Error('no config');\n");
  write('catalog/c-helper.mjs', 'export const helper = 1;\n');
  write('catalog/d-not-scenario.mjs', 'export default { name: 1 };\n');

  it(
    'keeps the healthy scenarios, a broken entry per failed file, ' +
      'named as its source says or by its path; a built-in file must be a scenario',
    async () => {
      const catalog = await loadCatalog([], dir);
      expect(catalog.entries.map((e) => [e.scenario.name, e.failure ? failureText(e.failure) : 'ok'])).toEqual([
        ['a-good', 'ok'],
        ['c-helper', `${join(dir, 'c-helper.mjs')}: does not default-export a defineScenario() value`],
        [
          'd-not-scenario',
          `${join(dir, 'd-not-scenario.mjs')}: its default export is not a scenario (export default ` +
            'defineScenario({ ... })): it has no valid name (a string), description (a string), tags (strings), ' +
            'needs (an object), params (per profile), budgetMs (per profile), ' +
            'records ({ latencies, counters }), run (a function)',
        ],
        ['b-meant', `${join(dir, 'sub/b-throws.mjs')}:2:7: no config`],
      ]);
      expect(catalog.select([]).map((s) => s.name)).toEqual(['a-good', 'c-helper', 'd-not-scenario', 'b-meant']);
      await expect(loadScenarios(dir)).rejects.toThrow('c-helper.mjs: does not default-export');
    },
  );

  it("a broken entry needs nothing and, run, throws where and why (its stack at the file's position)", async () => {
    const broken = (await loadCatalog([], dir)).broken.find((e) => e.scenario.name === 'b-meant')!;
    expect(broken.scenario.needs).toEqual({});
    const thrown = await broken.scenario.run({} as never, {}).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(thrown?.message).toBe(`${join(dir, 'sub/b-throws.mjs')}:2:7: no config`);
    expect(thrown?.stack).toContain(`at ${join(dir, 'sub/b-throws.mjs')}:2:7`);
  });
});
