// What the terminal summary, summary.md and report.html say about a merged shard set (results'
// `shards`): the PARTIAL line that must head a merge of fewer than N workers, whatever its verdict,
// and the cells of one row per worker beside the total. Plain text: each renderer escapes it.
import type { RunResult } from '../../results/runResult.ts';
import type { ShardSetRecord } from '../../results/shardRecord.ts';
import { count } from '../../figures.ts';

/** "PARTIAL: 2 of 3 workers (worker 1: why)", or undefined for a whole set or an ordinary run. */
export function partialNote(run: RunResult): string | undefined {
  const set = run.shards;
  if (!set?.partial) return undefined;
  const why = set.missing.map((m) => `worker ${m.index}: ${m.why}`).join('; ');
  return (
    `PARTIAL: ${set.merged.length} of ${set.count} workers (${why}); ` +
    'the load offered and every rate are short of what the run planned'
  );
}

export const WORKER_COLUMNS = ['worker', 'host', 'verdict', 'scenarios', 'requests', 'no reply', 'start lag', 'clock'];

// Whole milliseconds: starts and clocks across hosts are known to the millisecond at best.
const ms = (n: number) => `${count(n)} ms`;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${ms(n)}`;

/** One row of cells per merged worker, then the total, in WORKER_COLUMNS' order. */
export function workerCells(set: ShardSetRecord): string[][] {
  const rows = set.workers.map((w) => [
    String(w.index),
    w.host,
    w.verdict,
    String(w.scenarios),
    count(w.requests),
    count(w.failedRequests),
    ms(w.startLagMs),
    w.clockOffsetMs === undefined ? '–' : signed(w.clockOffsetMs),
  ]);
  const sum = (by: (w: ShardSetRecord['workers'][number]) => number) => set.workers.reduce((n, w) => n + by(w), 0);
  const total = [
    'total',
    `${set.workers.length} of ${set.count}`,
    '',
    '',
    count(sum((w) => w.requests)),
    count(sum((w) => w.failedRequests)),
    `spread ${ms(set.startSpreadMs)}`,
    set.clockSkewMs === undefined ? '–' : `skew ${ms(set.clockSkewMs)}`,
  ];
  return [...rows, total];
}

/** One line on how the set started: the barrier, the start spread and the clock skew. */
export function startLine(set: ShardSetRecord): string {
  const barrier = set.barrier === 'directory' ? 'a shared directory' : 'an agreed time (--start-at)';
  const skew = set.clockSkewMs === undefined ? 'clock skew not measured' : `clock skew ${ms(set.clockSkewMs)}`;
  return `run ${set.setRunId}: the workers met at ${barrier}; starts ${ms(set.startSpreadMs)} apart, ${skew}`;
}
