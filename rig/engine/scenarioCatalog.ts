// Finds the scenarios: every file under scenarios/ (built in) and under each `--scenarios DIR` (the
// user's own) that default-exports a defineScenario() value. Nothing imports scenarios statically;
// the engine discovers them, built-ins first in path order (so the conformance suite runs first,
// CF-1 to CF-7), then each directory's in the order given.
//
// A file that fails to load (a syntax error, a throwing import, a default export that is no
// scenario) does not stop the catalog: it becomes a broken entry that says where and why
// (`file:line:col: message`), which `list` shows and `run` records as an errored scenario, while
// the other scenarios run as usual.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../protocol/userError.ts';
import { defineScenario, everyProfile, type ScenarioDefinition } from './kit/defineScenario.ts';
import { allowScenarioModules, importScenarioModule, TYPESCRIPT_FILE } from './scenarioModules.ts';
import { displayPath, failureOf, failureText, type LoadFailure } from './scenarioLoadFailure.ts';

export { displayPath, failureText, type LoadFailure } from './scenarioLoadFailure.ts';

export const SCENARIOS_DIR = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** The files a directory may hold scenarios in (declaration files excepted). */
const SCENARIO_FILE = /\.(ts|mts|js|mjs)$/;

export interface CatalogEntry {
  /** A broken entry's is a stand-in: needs nothing, and its run() throws the load failure. */
  scenario: ScenarioDefinition<object>;
  /** Absolute, symlinks resolved. */
  file: string;
  /** The `--scenarios` directory it came from; absent for a built-in scenario. */
  dir?: string;
  /** Why the file did not load; absent for a healthy entry. */
  failure?: LoadFailure;
}

/** A file of a user's directory that exports no scenario at all: a helper the scenarios import. */
const HELPER = Symbol('helper');

function scenarioFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory())
        return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : scenarioFiles(path);
      return SCENARIO_FILE.test(entry.name) && !/\.d\.m?ts$/.test(entry.name) ? [path] : [];
    })
    .sort((a, b) => relative(dir, a).localeCompare(relative(dir, b), 'en', { numeric: true }));
}

const isObject = (x: unknown) => typeof x === 'object' && x !== null;
const isStrings = (x: unknown) => Array.isArray(x) && x.every((t) => typeof t === 'string');

/** A scenario's fields, each with what it must be (as the problem names it) and its test. */
const SCENARIO_SHAPE: ReadonlyArray<readonly [field: string, must: string, ok: (x: unknown) => boolean]> = [
  ['name', 'name (a string)', (x) => typeof x === 'string'],
  ['description', 'description (a string)', (x) => typeof x === 'string'],
  ['tags', 'tags (strings)', isStrings],
  ['needs', 'needs (an object)', isObject],
  ['params', 'params (per profile)', isObject],
  ['budgetMs', 'budgetMs (per profile)', isObject],
  ['records', 'records ({ latencies, counters })', isObject],
  ['run', 'run (a function)', (x) => typeof x === 'function'],
  ['requires', 'requires (scenario names)', (x) => x === undefined || isStrings(x)],
];

/** Why `value` cannot be a scenario, or undefined when it has a scenario's shape. */
function shapeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return `it is ${value === null ? 'null' : typeof value}`;
  const v = value as Record<string, unknown>;
  const wrong = SCENARIO_SHAPE.filter(([field, , ok]) => !ok(v[field])).map(([, must]) => must);
  return wrong.length > 0 ? `it has no valid ${wrong.join(', ')}` : undefined;
}

type Loaded = { scenario: ScenarioDefinition<object> } | { failure: LoadFailure } | typeof HELPER;

async function loadFile(file: string, dir: string, userDir: boolean): Promise<Loaded> {
  let module: Record<string, unknown>;
  try {
    module = await importScenarioModule(file);
  } catch (err) {
    return { failure: failureOf(file, err, dir) };
  }
  const fail = (message: string): Loaded => ({ failure: { file, message } });
  const value = module.default;
  if (value === undefined) {
    const named = Object.entries(module).find(([, v]) => shapeProblem(v) === undefined);
    if (named)
      return fail(
        `exports the scenario as "${named[0]}": make it the default export (export default defineScenario({ ... }))`,
      );
    return userDir ? HELPER : fail('does not default-export a defineScenario() value');
  }
  const problem = shapeProblem(value);
  if (problem) return fail(`its default export is not a scenario (export default defineScenario({ ... })): ${problem}`);
  try {
    // A scenario written without defineScenario() (plain JavaScript) is checked all the same.
    return { scenario: defineScenario(value as ScenarioDefinition<object>) };
  } catch (err) {
    return fail((err as Error).message);
  }
}

/**
 * The name a broken file most likely meant (`name: '...'` once in its source), so `run <that name>`
 * reports the failure.
 */
function intendedName(file: string): string | undefined {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const names = new Set([...source.matchAll(/\bname\s*:\s*(['"`])([a-z0-9][a-z0-9-]*)\1/g)].map((m) => m[2]!));
  return names.size === 1 ? [...names][0] : undefined;
}

/**
 * Stands in for a file that failed to load: selectable by name, needs nothing, and errors with where
 * and why when run.
 */
function brokenScenario(name: string, failure: LoadFailure): ScenarioDefinition<object> {
  const reason = failureText(failure);
  return {
    name,
    description: `failed to load: ${reason}`,
    tags: [],
    needs: {},
    params: everyProfile({}),
    budgetMs: everyProfile(60_000),
    records: { latencies: [], counters: {} },
    run: async () => {
      const err = new Error(reason);
      err.stack =
        failure.stack ??
        `Error: ${reason}\n    at ${failure.file}${failure.line ? `:${failure.line}:${failure.column ?? 1}` : ''}`;
      throw err;
    },
  };
}

/** A user's directory, checked: it must exist and be a directory (a usage error otherwise). */
function userDirectory(given: string): string {
  const path = resolve(given);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new UserError(`--scenarios ${given}: no such directory`);
  }
  if (!statSync(real).isDirectory()) throw new UserError(`--scenarios ${given}: not a directory`);
  return real;
}

export class Catalog {
  constructor(
    readonly entries: readonly CatalogEntry[],
    /** What a run selects when given no names: the --scenarios directories' scenarios, or all when none was given. */
    readonly defaults: readonly ScenarioDefinition<object>[],
  ) {}

  get scenarios(): ScenarioDefinition<object>[] {
    return this.entries.map((e) => e.scenario);
  }

  get broken(): CatalogEntry[] {
    return this.entries.filter((e) => e.failure);
  }

  /** The scenarios a run selects (see selectScenarios): with no selectors, the defaults. */
  select(selectors: string[]): ScenarioDefinition<object>[] {
    return selectScenarios(this.scenarios, selectors, this.defaults);
  }
}

interface Found {
  file: string;
  dir?: string;
  loaded: Loaded;
}

/**
 * Loads each file once, by its real path (a file reached twice, through a symlink or a directory
 * given twice, is one entry), and keeps the order the files were first found in.
 */
class FileLoader {
  readonly found: Found[] = [];
  private readonly seen = new Map<string, Loaded>();

  constructor(private readonly builtInDir: string) {}

  async load(file: string, dir?: string): Promise<{ file: string; loaded: Loaded }> {
    const real = realpathSync(file);
    const loaded = this.seen.get(real) ?? (await loadFile(real, dir ?? this.builtInDir, dir !== undefined));
    if (!this.seen.has(real)) this.found.push({ file: real, ...(dir ? { dir } : {}), loaded });
    this.seen.set(real, loaded);
    return { file: real, loaded };
  }
}

/**
 * Loads each `--scenarios` directory's files, after the built-ins; returns the files among them that
 * hold a scenario (what a run selects by default). Usage errors: a directory with no scenario file, or
 * none of whose files default-exports a scenario.
 */
async function loadUserDirs(
  dirs: ReadonlyArray<{ given: string; real: string }>,
  loader: FileLoader,
): Promise<Set<string>> {
  const userFiles = dirs.map((d) => scenarioFiles(d.real));
  if (dirs.length > 0)
    await allowScenarioModules(
      dirs.map((d) => d.real),
      userFiles.some((files) => files.some((f) => TYPESCRIPT_FILE.test(f))),
    );
  const defaultFiles = new Set<string>();
  for (const [i, { given, real }] of dirs.entries()) {
    const files = userFiles[i]!;
    if (files.length === 0)
      throw new UserError(`--scenarios ${given}: no scenario files in it (*.ts, *.mts, *.js, *.mjs)`);
    let scenarios = 0;
    for (const file of files) {
      const { file: loadedFile, loaded } = await loader.load(file, real);
      if (loaded === HELPER) continue;
      scenarios++;
      defaultFiles.add(loadedFile);
    }
    if (scenarios === 0)
      throw new UserError(
        `--scenarios ${given}: no file in it default-exports a scenario ` +
          "(export default defineScenario({ ... }) from 'a2a-rig')",
      );
  }
  return defaultFiles;
}

/** Each loaded scenario's name and file; two scenarios of one name are a usage error naming both files. */
function scenarioNames(found: readonly Found[]): Map<string, string> {
  const byName = new Map<string, string>();
  for (const { file, loaded } of found) {
    if (loaded === HELPER || !('scenario' in loaded)) continue;
    const other = byName.get(loaded.scenario.name);
    if (other)
      throw new UserError(
        `two scenarios are named "${loaded.scenario.name}": ${displayPath(other)} and ${displayPath(file)}`,
      );
    byName.set(loaded.scenario.name, file);
  }
  return byName;
}

/**
 * The catalog's entries in the order found, helpers left out. A broken file stands in under the first
 * name no entry has yet: the name its source meant, its path in its directory, or its display path.
 */
function catalogEntries(found: readonly Found[], byName: Map<string, string>, builtInDir: string): CatalogEntry[] {
  const entries: CatalogEntry[] = [];
  for (const { file, dir, loaded } of found) {
    if (loaded === HELPER) continue;
    if ('scenario' in loaded) {
      entries.push({ scenario: loaded.scenario, file, ...(dir ? { dir } : {}) });
      continue;
    }
    const path = relative(dir ?? builtInDir, file)
      .replace(/\.[^./]+$/, '')
      .split(sep)
      .join('/');
    const name = [intendedName(file), path, displayPath(file)].find((n) => n !== undefined && !byName.has(n))!;
    byName.set(name, file);
    entries.push({
      scenario: brokenScenario(name, loaded.failure),
      file,
      ...(dir ? { dir } : {}),
      failure: loaded.failure,
    });
  }
  return entries;
}

/** Every `requires` names a scenario of the catalog (a usage error otherwise). */
function checkRequires(entries: readonly CatalogEntry[], byName: Map<string, string>): void {
  for (const { scenario, file } of entries) {
    for (const r of scenario.requires ?? []) {
      if (!byName.has(r))
        throw new UserError(
          `scenario "${scenario.name}" (${displayPath(file)}) requires "${r}", which no scenario is named`,
        );
    }
  }
}

/**
 * The built-in scenarios and those of each `userDirs` directory (recursively: *.ts, *.mts, *.js,
 * *.mjs; node_modules and dot-directories left out; a file that exports no scenario at all is a
 * helper and is left out). Usage errors: a directory that does not exist or holds no scenario,
 * two scenarios of one name (naming both files), a `requires` naming no scenario.
 */
export async function loadCatalog(userDirs: readonly string[] = [], builtInDir = SCENARIOS_DIR): Promise<Catalog> {
  const dirs = userDirs.map((given) => ({ given, real: userDirectory(given) }));
  const loader = new FileLoader(builtInDir);
  for (const file of scenarioFiles(builtInDir)) await loader.load(file);
  const defaultFiles = await loadUserDirs(dirs, loader);
  const byName = scenarioNames(loader.found);
  const entries = catalogEntries(loader.found, byName, builtInDir);
  checkRequires(entries, byName);
  const defaults =
    dirs.length > 0
      ? entries.filter((e) => defaultFiles.has(e.file)).map((e) => e.scenario)
      : entries.map((e) => e.scenario);
  return new Catalog(entries, defaults);
}

/** The built-in scenarios; a file that fails to load throws (a broken built-in is the rig's bug). */
export async function loadScenarios(dir = SCENARIOS_DIR): Promise<ScenarioDefinition<object>[]> {
  const catalog = await loadCatalog([], dir);
  const broken = catalog.broken[0]?.failure;
  if (broken) throw new Error(failureText(broken));
  return catalog.scenarios;
}

/**
 * The scenarios a run selects, in catalog order: by name or by tag; none selects `defaults` (all,
 * unless --scenarios directories were given). Scenarios another one requires are added. Unknown
 * names are a user error listing what exists.
 */
export function selectScenarios(
  all: ScenarioDefinition<object>[],
  selectors: string[],
  defaults: readonly ScenarioDefinition<object>[] = all,
): ScenarioDefinition<object>[] {
  const chosen = new Set<string>();
  if (selectors.length === 0) for (const s of defaults) chosen.add(s.name);
  for (const selector of selectors) {
    const matches = all.filter((s) => s.name === selector || s.tags.includes(selector));
    if (matches.length === 0) {
      throw new UserError(`no scenario or tag named "${selector}"; run "a2a-rig list" to see them`);
    }
    for (const m of matches) chosen.add(m.name);
  }
  let added = true;
  while (added) {
    added = false;
    for (const s of all) {
      if (!chosen.has(s.name)) continue;
      for (const r of s.requires ?? []) {
        if (!chosen.has(r)) {
          chosen.add(r);
          added = true;
        }
      }
    }
  }
  return all.filter((s) => chosen.has(s.name));
}
