// Lets the catalog import scenario files from directories outside the rig (--scenarios DIR): the
// module hooks of scenarioModuleHooks.mjs (`import ... from 'a2a-rig'` is this rig's
// rig/scenarioApi.ts; scenario files are ES modules), registered once per directory, only when
// such a directory is given, so a run of the built-in scenarios loads exactly as before.
//
// A scenario written in TypeScript goes through tsx, in a namespace of its own: only the modules
// imported through it (the user's files, and what they import) are transformed, never the compiled
// rig's own, and tsx is loaded the first time such a file is given. Where the rig itself runs as
// TypeScript (vitest, tsx: rigPaths.ts) the loader already in place imports them.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { rigModuleUrl, RUNS_COMPILED } from './rigPaths.ts';

const registered = new Set<string>();

/** The URL `a2a-rig` resolves to in a scenario file. */
export const SCENARIO_API_URL = rigModuleUrl('scenarioApi.ts');

/** The files tsx transforms. */
export const TYPESCRIPT_FILE = /\.[cm]?ts$/;

type Importer = (url: string) => Promise<Record<string, unknown>>;
let tsImporter: Importer | undefined;
/** What is used of tsx's API: a namespaced registration and its import. */
interface TsxApi {
  register(options: { namespace: string }): { import(specifier: string, parentURL: string): Promise<unknown> };
}
// A constant, not a literal: madge (test/house.importCycles.test.ts) cannot resolve the package's
// subpath export and would report the file as unread.
const TSX_API = 'tsx/esm/api';

async function typescriptImporter(): Promise<Importer> {
  let tsx: TsxApi;
  try {
    tsx = (await import(TSX_API)) as TsxApi;
  } catch {
    throw new Error('a scenario written in TypeScript needs tsx: npm install tsx (or give the rig .js files)');
  }
  const scoped = tsx.register({ namespace: 'a2a-rig-scenarios' });
  return (url) => scoped.import(url, import.meta.url) as Promise<Record<string, unknown>>;
}

/**
 * `dirs`: real (symlink-free) absolute paths, as Node resolves the files in them. `typescript`: some
 * file in them is TypeScript. Registers tsx before the hooks, so the hooks see `a2a-rig` first.
 */
export async function allowScenarioModules(dirs: readonly string[], typescript: boolean): Promise<void> {
  if (typescript && RUNS_COMPILED && !tsImporter) tsImporter = await typescriptImporter();
  const fresh = dirs
    .map((dir) => pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`).href)
    .filter((url) => !registered.has(url));
  if (fresh.length === 0) return;
  for (const url of fresh) registered.add(url);
  register(new URL('./scenarioModuleHooks.mjs', import.meta.url), { data: { api: SCENARIO_API_URL, dirs: fresh } });
}

/** Imports a scenario file: TypeScript of a user's directory through tsx's namespace when the rig is compiled. */
export async function importScenarioModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (tsImporter && TYPESCRIPT_FILE.test(file)) return tsImporter(url);
  return (await import(url)) as Record<string, unknown>;
}
