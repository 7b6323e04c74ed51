// A comparison of figures the load generator may have limited (rig/metrics/rigHealth.ts
// rigSaturation: its event loop or its cores, the machine's run queue or steal). A side counts as
// saturated when at least half of its runs were. When one side was and the other was not, a
// difference in latency or throughput may be the rig's own, so the row is inconclusive (exit 3),
// never a regression, an improvement or "no change". When both were (interleaved A/B rounds beside
// a neighbour), the comparison is between equals and stands, with a note. A minority of saturated
// runs in a side of several stands too, with a note: its samples are a minority of the pool and
// the spread between runs is in the interval. Counting any one run was too strict for A/B rounds:
// two identical agents on a quiet box stayed undecided for 16 rounds because one candidate run in
// 18 saw a run queue of 2.7 for 2 cores for its 2 s (measured 2026-12-05).
import { rigSaturation } from '../metrics/rigHealth.ts';
import type { ScenarioResult } from '../results/runResult.ts';
import type { CompareRow } from './compareRow.ts';

interface SideSaturation {
  /** The first saturation found among the side's runs. */
  why?: string;
  saturated: number;
  runs: number;
}

function sideSaturation(side: readonly ScenarioResult[]): SideSaturation {
  const reasons = side.map((s) => rigSaturation(s.health)).filter((why): why is string => why !== undefined);
  return { why: reasons[0], saturated: reasons.length, runs: side.length };
}

const mostly = (s: SideSaturation) => s.saturated > 0 && s.saturated * 2 >= s.runs;
const share = (s: SideSaturation) => `${s.saturated} of ${s.runs}`;

const JUDGED = new Set(['regression', 'improvement', 'no change', 'ok']);

const noted = (rows: CompareRow[], note: string) =>
  rows.map((r) => ({ ...r, note: [r.note, note].filter(Boolean).join('; ') }));

/** The scenario's measured rows (not its verdict row) with the rig's saturation taken into account. */
export function withSaturation(
  rows: CompareRow[],
  sides: { base: readonly ScenarioResult[]; cur: readonly ScenarioResult[] },
): CompareRow[] {
  const base = sideSaturation(sides.base);
  const cur = sideSaturation(sides.cur);
  if (!base.why && !cur.why) return rows;
  if (mostly(base) && mostly(cur)) return noted(rows, `both sides saturated alike (${cur.why})`);
  if (!mostly(base) && !mostly(cur))
    return noted(
      rows,
      `the rig was saturated in ${share(base)} baseline and ${share(cur)} current runs, a minority ` +
        `each, carried by the interval (${(cur.why ?? base.why)!})`,
    );
  const side = (name: string, s: SideSaturation) => `${name} run${s.runs > 1 ? `s (${share(s)})` : ''}: ${s.why!}`;
  const which = mostly(cur) ? side('current', cur) : side('baseline', base);
  return rows.map((r) =>
    JUDGED.has(r.result)
      ? { ...r, result: 'inconclusive', note: `not judged, the rig may have been the limit in the ${which}` }
      : r,
  );
}
