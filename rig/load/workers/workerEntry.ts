// Where a load worker thread starts. The boot file imports the worker's module; when the rig runs
// as TypeScript (vitest, tsx) that module is a .ts file and the boot file first registers tsx in
// the new thread (a thread does not inherit the loader hooks of the thread that made it). Compiled,
// no loader is registered. This file runs as what its sibling runs as (dist/ mirrors rig/), so its
// own URL says which: rig/load imports nothing of the engine (docs/architecture.md).

/** The file a Worker is made from. */
export const WORKER_BOOT = new URL('./workerBoot.mjs', import.meta.url);

/** The module the boot file imports: the worker's side of workerPool.ts. */
export const WORKER_MAIN = new URL(
  import.meta.url.endsWith('.js') ? './workerThread.js' : './workerThread.ts',
  import.meta.url,
).href;
