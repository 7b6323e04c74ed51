// `run --workers N`: how many worker threads an open-model load, a DoS burst or a flood may use
// (rig/engine/scenarioLoad.ts).
// One per core by default, as k6 and wrk use every core they are given, but one fewer when the
// agent runs on this machine (the embedded agent, --env containers): its process needs a core too,
// and threads that share the agent's core cost more CPU per round trip than they add in rate
// (docs/benchmarks.md). 1 runs every load on the main thread, as before workers existed.
import { availableParallelism } from 'node:os';
import { UserError } from './protocol/userError.ts';

export const MAX_WORKERS = 64;

/** `--workers`'s validator (rig/runOptions.ts's table). */
export function parseWorkers(value: string): number {
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_WORKERS)
    throw new UserError(`--workers must be a whole number from 1 to ${MAX_WORKERS}, got "${value}"`);
  return n;
}

/** The default: one thread per core, less the agent's when it runs on this machine; 1 at least. */
export function defaultWorkers(agentOnThisMachine: boolean, cores = availableParallelism()): number {
  return Math.max(1, Math.min(cores - (agentOnThisMachine ? 1 : 0), MAX_WORKERS));
}
