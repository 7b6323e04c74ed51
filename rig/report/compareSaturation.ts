// A comparison of figures the load generator may have limited (rig/metrics/rigHealth.ts
// rigSaturation: its event loop or its cores, the machine's run queue or steal). When one side's
// runs were saturated and the other's were not, a difference in latency or throughput may be the
// rig's own, so the row is inconclusive (exit 3), never a regression, an improvement or "no change".
// When both sides were saturated alike (interleaved A/B rounds beside a neighbour), the comparison
// is between equals and stands, with a note.
import { rigSaturation } from '../metrics/rigHealth.ts';
import type { ScenarioResult } from '../results/runResult.ts';
import type { CompareRow } from './compareRow.ts';

/** The first saturation found among a side's runs of one scenario, or undefined. */
function sideSaturation(side: readonly ScenarioResult[]): string | undefined {
  for (const s of side) {
    const why = rigSaturation(s.health);
    if (why) return why;
  }
  return undefined;
}

const JUDGED = new Set(['regression', 'improvement', 'no change', 'ok']);

/** The scenario's measured rows (not its verdict row) with the rig's saturation taken into account. */
export function withSaturation(
  rows: CompareRow[],
  sides: { base: readonly ScenarioResult[]; cur: readonly ScenarioResult[] },
): CompareRow[] {
  const base = sideSaturation(sides.base);
  const cur = sideSaturation(sides.cur);
  if (!base && !cur) return rows;
  if (base && cur)
    return rows.map((r) => ({
      ...r,
      note: [r.note, `both sides saturated alike (${cur})`].filter(Boolean).join('; '),
    }));
  const which = cur ? `current run: ${cur}` : `baseline run: ${base}`;
  return rows.map((r) =>
    JUDGED.has(r.result)
      ? { ...r, result: 'inconclusive', note: `not judged, the rig may have been the limit in the ${which}` }
      : r,
  );
}
