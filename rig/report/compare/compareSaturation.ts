// A comparison of figures the load generator may have limited (rig/metrics/rigHealth.ts
// rigSaturation: its event loop or its cores, the machine's run queue or steal). A side counts as
// saturated when at least half of its runs were. A saturated rig only ever makes the agent look
// worse (slower, fewer per second), so when one side was saturated and the other was not:
// - a regression stands when only the baseline was saturated (the baseline's figures are if
//   anything worse than its agent's, and the current is worse still), and an improvement stands
//   when only the current was;
// - every other outcome is inconclusive (exit 3), never a regression, an improvement or "no
//   change": the difference, or its absence, may be the rig's own.
// Without the direction, a candidate behind a +3 ms toxic beside a CPU hog was never judged: the
// baseline's fast resumes kept the box saturated, the slower candidate's did not (docs/benchmarks.md,
// "Figures behind bounds in the code"). When both sides were saturated (A/B rounds beside a
// neighbour), the comparison is between equals and stands, with a note. A minority of saturated
// runs in a side of several stands too, with a note: its samples are a minority of the pool and
// the spread between runs is in the interval. Counting any one run was too strict for A/B rounds:
// one briefly saturated run kept two identical agents on a quiet box undecided for many rounds.
import { rigSaturation } from '../../metrics/rigHealth.ts';
import type { ScenarioResult } from '../../results/runResult.ts';
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
  const baseOnly = mostly(base);
  const which = baseOnly ? side('baseline', base) : side('current', cur);
  const stands = baseOnly ? 'regression' : 'improvement';
  return rows.map((r) =>
    r.result === stands
      ? { ...r, note: [r.note, `it stands although the rig was saturated in the ${which}`].filter(Boolean).join('; ') }
      : JUDGED.has(r.result)
        ? { ...r, result: 'inconclusive', note: `not judged, the rig may have been the limit in the ${which}` }
        : r,
  );
}
