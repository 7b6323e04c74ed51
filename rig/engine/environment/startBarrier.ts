// The synchronized start of a distributed run's workers, so their shares of the load overlap.
//
// The barrier is a directory every worker can write: the shard set's own results directory (a
// shared volume: a Swarm volume, a Kubernetes ReadWriteMany claim), under `.barrier/`. Chosen over
// a barrier through the target's proxy because the workers need that directory anyway (their
// results meet there for `merge`), it needs no listener on any worker, and a filesystem gives the
// workers a common clock to measure their skew against:
//   1. each worker writes a probe file and compares the modification time the filesystem gave it
//      with its own clock read just before and after: offset = mtime − midpoint (± half the write);
//   2. it writes `arrived-<i>.json` (atomically, by rename) with its clock and that offset;
//   3. it waits until all N have arrived; every worker computes the same start from the same files:
//      the latest arrival, in the filesystem's clock, plus a lead; each waits until its own clock,
//      corrected by its offset, says so.
// On one host every offset reads about 0 (one kernel clock); across machines sharing NFS or the
// like it is each machine's distance from the file server's clock. `--start-at` is the other way
// in: an absolute wall-clock time, for workers that share no directory (skew then is not measured).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../protocol/userError.ts';
import { sleep } from '../kit/abortableWait.ts';
import type { ShardStart } from '../../results/shardRecord.ts';

interface Arrival {
  index: number;
  count: number;
  runId: string;
  host: string;
  pid: number;
  /** Epoch ms on the worker's own clock when it arrived. */
  localEpochMs: number;
  clockOffsetMs: number;
}

/** Time between every worker having arrived and the start, so each sees all files before it. */
export const BARRIER_LEAD_MS = 2_000;
const POLL_MS = 50;

/** The filesystem's clock minus ours, from one probe file's modification time. */
function measureOffset(dir: string, index: number): { offsetMs: number; uncertaintyMs: number } {
  const probe = join(dir, `clock-${index}.probe`);
  const before = Date.now();
  writeFileSync(probe, String(before));
  const after = Date.now();
  const mtime = statSync(probe).mtimeMs;
  // Linux stamps files from a coarse clock (one scheduler tick, up to 10 ms).
  return { offsetMs: mtime - (before + after) / 2, uncertaintyMs: (after - before) / 2 + 10 };
}

function readArrivals(dir: string, runId: string, count: number): Map<number, Arrival> {
  const seen = new Map<number, Arrival>();
  for (const name of readdirSync(dir)) {
    if (!/^arrived-\d+\.json$/.test(name)) continue;
    const arrival = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Arrival;
    if (arrival.runId !== runId || arrival.count !== count)
      throw new UserError(
        `start barrier ${dir}: ${name} is worker ${arrival.index} of ${arrival.count} of run ${arrival.runId}, ` +
          `not of ${count} workers of run ${runId}: every worker must be given the same --shard N and --run-id`,
      );
    seen.set(arrival.index, arrival);
  }
  return seen;
}

/** Waits at the barrier in `dir` until all `count` workers of `runId` are there, then until their common start. */
export async function meetInDirectory(options: {
  dir: string;
  runId: string;
  index: number;
  count: number;
  timeoutMs: number;
  signal: AbortSignal;
  leadMs?: number;
}): Promise<ShardStart> {
  const { dir, runId, index, count, timeoutMs, signal } = options;
  const began = Date.now();
  mkdirSync(dir, { recursive: true });
  const mine = join(dir, `arrived-${index}.json`);
  if (existsSync(mine)) {
    const earlier = JSON.parse(readFileSync(mine, 'utf8')) as Arrival;
    throw new UserError(
      `start barrier ${dir}: worker ${index} already arrived there (host ${earlier.host}, pid ${earlier.pid}, ` +
        `${new Date(earlier.localEpochMs).toISOString()}); a run id is used for one run only`,
    );
  }
  const clock = measureOffset(dir, index);
  const arrival: Arrival = {
    index,
    count,
    runId,
    host: hostname(),
    pid: process.pid,
    localEpochMs: Date.now(),
    clockOffsetMs: clock.offsetMs,
  };
  writeFileSync(`${mine}.tmp`, JSON.stringify(arrival));
  renameSync(`${mine}.tmp`, mine);
  let all = readArrivals(dir, runId, count);
  while (all.size < count) {
    if (Date.now() - began > timeoutMs) {
      const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !all.has(i));
      throw new UserError(
        `start barrier ${dir}: after ${Math.round(timeoutMs / 1000)} s worker(s) ${missing.join(', ')} of ${count} ` +
          `never arrived (--barrier-timeout); this worker (${index}) stops without running`,
      );
    }
    if (!(await sleep(POLL_MS, signal))) throw new UserError('interrupted at the start barrier');
    all = readArrivals(dir, runId, count);
  }
  const lastArrivalShared = Math.max(...[...all.values()].map((a) => a.localEpochMs + a.clockOffsetMs));
  const planned = Math.ceil(lastArrivalShared + (options.leadMs ?? BARRIER_LEAD_MS) - clock.offsetMs);
  await waitUntil(planned, signal, 'interrupted at the start barrier');
  const started = Date.now();
  return {
    barrier: 'directory',
    plannedStartEpochMs: planned,
    startedEpochMs: started,
    clockOffsetMs: Math.round(clock.offsetMs * 10) / 10,
    clockOffsetUncertaintyMs: Math.round(clock.uncertaintyMs * 10) / 10,
    waitedMs: started - began,
  };
}

/** Waits until this process's clock reads `epochMs` (a timer may fire a millisecond early). */
async function waitUntil(epochMs: number, signal: AbortSignal, interrupted: string): Promise<void> {
  for (let left = epochMs - Date.now(); left > 0; left = epochMs - Date.now())
    if (!(await sleep(left, signal))) throw new UserError(interrupted);
}

/** `--start-at`: waits until this worker's clock reaches `epochMs`. A time already past starts at once. */
export async function startAt(epochMs: number, signal: AbortSignal): Promise<ShardStart> {
  const began = Date.now();
  await waitUntil(epochMs, signal, 'interrupted before --start-at');
  const started = Date.now();
  return { barrier: 'start-at', plannedStartEpochMs: epochMs, startedEpochMs: started, waitedMs: started - began };
}

/** `--start-at` as given: an ISO 8601 time with its zone (or Z), checked. */
export function parseStartAt(text: string, now = Date.now()): number {
  if (!/(Z|[+-]\d\d:?\d\d)$/i.test(text.trim()))
    throw new UserError(`--start-at needs a time zone (e.g. 2026-12-02T10:00:00Z), got "${text}"`);
  const epoch = Date.parse(text);
  if (Number.isNaN(epoch)) throw new UserError(`--start-at is not an ISO 8601 time: "${text}"`);
  if (epoch > now + 24 * 3600_000) throw new UserError(`--start-at ${text} is more than a day away`);
  return epoch;
}
