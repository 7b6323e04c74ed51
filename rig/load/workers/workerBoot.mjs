// A load worker thread's first module (see workerEntry.ts): TypeScript through tsx, as the CLI does.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.main);
