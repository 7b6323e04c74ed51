// compare's exit code: a gate that could not judge a row must never read as a pass.
import { describe, expect, it } from 'vitest';
import { baselineSection, compareWithBaseline } from '../rig/report/html/baselineSection.ts';
import { compareExit } from '../rig/report/compare/compareMarkdown.ts';
import { compareRuns, DEFAULT_COMPARE_OPTIONS } from '../rig/report/compare/compareRuns.ts';

/** One run a side is judged only on a machine said to be quiet (compareLatency.ts). */
const QUIET = { ...DEFAULT_COMPARE_OPTIONS, quietMachine: true };
import { run, samples, scenario } from './support/runResultFixture.ts';

const latencies = samples(2_000, 20_000, 400_000, 3);
const scale = (values: number[], factor: number) => values.map((v) => v * factor);

const at = (factor: number, seed = 3) =>
  run([scenario('load', { latencies: { resume_latency: scale(samples(2_000, 20_000, 400_000, seed), factor) } })]);
/** Runs that disagree with each other by ×1.4, on both sides: the interval straddles the tolerance. */
const swinging = (seeds: number[]) => seeds.map((s, i) => at(i % 2 ? 1.4 : 1, s));

describe('the exit code', () => {
  it('is 3 when the gate could not decide a row and found no regression: never a pass', () => {
    const undecided = compareRuns(swinging([5, 6, 7]), swinging([9, 8, 10]));
    expect(undecided.regressions).toEqual([]);
    expect(undecided.notJudged.map((r) => r.result)).toContain('inconclusive');
    expect(compareExit(undecided, false)).toBe(3);
    expect(compareExit(undecided, true)).toBe(0);
    expect(compareExit(compareRuns(at(1), at(1), QUIET), false)).toBe(0);
    expect(compareExit(compareRuns(at(1), at(3), QUIET), true)).toBe(1);
    // The same one run a side on a shared machine: undecided, exit 3.
    expect(compareExit(compareRuns(at(1), at(3)), false)).toBe(3);
  });
});

describe("report.html's baseline section", () => {
  it('says what the gate says: "not judged" when rows were undecided, never "no regression"', () => {
    const r = run([scenario('load', { latencies: { resume_latency: latencies } })]);
    const thin = run([scenario('load', { latencies: { resume_latency: samples(40, 20_000, 400_000, 3) } })]);
    const section = String(baselineSection(compareWithBaseline(thin, thin)));
    expect(section).toContain(
      '<h2>Against the baseline: not judged: 3 rows inconclusive or not compared, no regression among the rest</h2>',
    );
    // The forest plot draws the rows that have an interval.
    const same = String(baselineSection(compareWithBaseline(r, r, QUIET)));
    expect(same).toContain('<svg class="chart forest"');
    // Each row's no-change band (±its tolerance) is drawn behind its interval: three latency rows.
    expect(same.match(/<rect [^>]*fill="rgba\(78,121,167,0\.12\)"/g)).toHaveLength(3);
    expect(String(baselineSection(compareWithBaseline(r, r, QUIET)))).toContain(
      '<h2>Against the baseline: no regression</h2>',
    );
  });
});
