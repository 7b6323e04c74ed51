// The terminal summary's workers section for a merged shard set: one aligned row per worker and
// the total under them, then how the set started. Hosts are cut to fit; numbers are right-aligned.
import type { ShardSetRecord } from '../../results/shardRecord.ts';
import { startLine, WORKER_COLUMNS, workerCells } from '../merge/shardRows.ts';
import { fit, length, padEnd, padStart, wrap } from './terminalColumns.ts';
import { printableLine } from './terminalText.ts';

/** Columns left-aligned (worker, host, verdict); the others are figures. */
const LEFT = new Set([0, 1, 2]);
const HOST_WIDTH = 24;

export function workerLines(set: ShardSetRecord, width: number): string[] {
  const rows = [WORKER_COLUMNS, ...workerCells(set)].map((r) =>
    r.map((cell, i) => (i === 1 ? fit(printableLine(cell), HOST_WIDTH) : printableLine(cell))),
  );
  const widths = WORKER_COLUMNS.map((_, i) => Math.max(...rows.map((r) => length(r[i]!))));
  const lines = rows.map((r) =>
    fit(
      `  ${r.map((cell, i) => (LEFT.has(i) ? padEnd(cell, widths[i]!) : padStart(cell, widths[i]!))).join('  ')}`,
      width,
    ).trimEnd(),
  );
  return [...lines, ...wrap(printableLine(startLine(set)), width, '  ', '    ', 2)];
}
