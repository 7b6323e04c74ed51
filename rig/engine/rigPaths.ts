// Where the rig's own files are. The rig runs compiled from dist/ (bin/a2a-rig.js; scripts/build.mjs
// mirrors rig/ and scenarios/ under dist/), and as TypeScript from the sources where a loader is in
// place (vitest, tsx): a path to another rig module, the package root or the command line must hold
// in both, and this module is the one place that knows the difference.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Compiled (dist/rig/engine/rigPaths.js), not the TypeScript source. */
export const RUNS_COMPILED = import.meta.url.endsWith('.js');

/** The package's root (package.json, bin/): the repository, or where the package is installed. */
export const PACKAGE_ROOT = fileURLToPath(new URL(RUNS_COMPILED ? '../../../' : '../../', import.meta.url));

/** The URL of a rig module, named by its source path under rig/ (`load/workers/workerThread.ts`), as it runs. */
export function rigModuleUrl(sourcePath: string): string {
  return new URL(`../${RUNS_COMPILED ? sourcePath.replace(/\.ts$/, '.js') : sourcePath}`, import.meta.url).href;
}

/**
 * The script a child rig process (the embedded agent, an A/B side) runs: the compiled command line
 * itself when this process is compiled (the sources, if any, were checked when it started), else
 * bin/a2a-rig.js, which brings dist/ up to date first.
 */
export const RIG_CLI = RUNS_COMPILED ? fileURLToPath(rigModuleUrl('cli.ts')) : join(PACKAGE_ROOT, 'bin/a2a-rig.js');
