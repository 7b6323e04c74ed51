// Where a load worker thread starts. The boot file imports the worker's module; when the rig runs
// as TypeScript (vitest, tsx: see rigPaths.ts) that module is a .ts file and the boot file first
// registers tsx in the new thread (a thread does not inherit the loader hooks of the thread that
// made it). Compiled, no loader is registered.
import { rigModuleUrl } from '../../engine/rigPaths.ts';

/** The file a Worker is made from. */
export const WORKER_BOOT = new URL('./workerBoot.mjs', import.meta.url);

/** The module the boot file imports: the worker's side of workerPool.ts. */
export const WORKER_MAIN = rigModuleUrl('load/workers/workerThread.ts');
