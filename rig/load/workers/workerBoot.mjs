// A load worker thread's first module (see workerEntry.ts): the worker's module, through tsx only
// when it is TypeScript (the rig running from its sources), so a compiled rig loads no loader.
import { workerData } from 'node:worker_threads';

if (/\.[cm]?ts$/.test(new URL(workerData.main).pathname)) (await import('tsx/esm/api')).register();
await import(workerData.main);
