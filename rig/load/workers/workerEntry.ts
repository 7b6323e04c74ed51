// Where a load worker thread starts: the one place that knows the rig runs as TypeScript through
// tsx (bin/a2a-rig.js). The boot file registers tsx in the new thread (a thread does not inherit
// the loader hooks of the thread that made it) and imports the worker's module. When the rig is
// compiled (issue 26), only these two URLs change.

/** The file a Worker is made from. */
export const WORKER_BOOT = new URL('./workerBoot.mjs', import.meta.url);

/** The module the boot file imports: the worker's side of workerPool.ts. */
export const WORKER_MAIN = new URL('./workerThread.ts', import.meta.url).href;
