// Node module hooks (node:module register(), run off the main thread) for scenario files outside the
// rig, registered by scenarioModules.ts before the first of them is imported.
//
// - The bare specifier `a2a-rig`, from any file, is the running rig's own rig/scenarioApi.ts, even
//   where the importing repository has a node_modules/a2a-rig of its own: a scenario runs against
//   the rig that runs it and shares its one instance of each module (defineScenario,
//   ScenarioSkipped), never a second copy of another version. `a2a-rig/<path>` is refused: the
//   rig exports one module.
// - A file under a --scenarios directory, and any file such a file imports (outside node_modules),
//   is an ES module whatever the nearest package.json says: most repositories have no
//   "type": "module", and tsx would otherwise load scenario.ts as CommonJS, which cannot import
//   the rig. .cjs and .cts files stay CommonJS.
// Plain JavaScript: a hooks module is loaded before (and apart from) the rig's TypeScript.

/** @type {string} */
let api = '';
/** @type {string[]} file: URLs of the directories, each ending in '/' */
let dirs = [];
/** URLs made ES modules, so that what they import is too. */
const esm = new Set();

/** @param {{ api: string, dirs: string[] }} data */
export function initialize(data) {
  api = data.api;
  dirs = data.dirs;
}

/** @param {string} specifier @param {{ parentURL?: string }} context @param {Function} nextResolve */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'a2a-rig') return { url: api, format: 'module', shortCircuit: true };
  if (specifier.startsWith('a2a-rig/')) {
    throw Object.assign(new Error(`cannot import "${specifier}": a2a-rig exports one module, import from 'a2a-rig'`), {
      code: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  }
  const resolved = await nextResolve(specifier, context);
  if (resolved.format !== 'commonjs' || !resolved.url.startsWith('file:') || resolved.url.includes('/node_modules/'))
    return resolved;
  // tsx marks a CommonJS file imported from an ES module with queries of its own (to pre-parse its
  // exports), some of them %-encoded into the path (`?namespace=` of a scoped import among them):
  // the file itself, as an ES module, needs none but the namespace that its search keeps.
  const file = new URL(resolved.url);
  file.pathname = decodeURIComponent(file.pathname).replace(/\?(?:tsx-commonjs-|namespace=).*$/, '');
  const search = file.search
    .slice(1)
    .split('&')
    .filter((p) => p && !p.startsWith('tsx-commonjs-'));
  file.search = search.length > 0 ? `?${search.join('&')}` : '';
  const url = file.href;
  if (/\.c[jt]s$/.test(file.pathname)) return resolved;
  if (!dirs.some((dir) => url.startsWith(dir)) && !esm.has(context.parentURL ?? '')) return resolved;
  esm.add(url);
  return { ...resolved, url, format: 'module' };
}
