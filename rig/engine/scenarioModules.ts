// Lets the catalog import scenario files from directories outside the rig (--scenarios DIR): the
// module hooks of scenarioModuleHooks.mjs (`import ... from 'a2a-rig'` is this rig's
// rig/scenarioApi.ts; scenario files are ES modules), registered once per directory, only when
// such a directory is given, so a run of the built-in scenarios loads exactly as before.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const registered = new Set<string>();

/** The URL `a2a-rig` resolves to in a scenario file. */
export const SCENARIO_API_URL = new URL('../scenarioApi.ts', import.meta.url).href;

/** `dirs`: real (symlink-free) absolute paths, as Node resolves the files in them. */
export function allowScenarioModules(dirs: readonly string[]): void {
  const fresh = dirs
    .map((dir) => pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`).href)
    .filter((url) => !registered.has(url));
  if (fresh.length === 0) return;
  for (const url of fresh) registered.add(url);
  register(new URL('./scenarioModuleHooks.mjs', import.meta.url), { data: { api: SCENARIO_API_URL, dirs: fresh } });
}
