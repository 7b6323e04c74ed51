// compare's exit code: a gate that could not judge a row must never read as a pass.
import { describe, expect, it } from 'vitest';
import { baselineSection, compareWithBaseline } from '../rig/report/baselineSection.ts';
import { compareExit } from '../rig/report/compareMarkdown.ts';
import { compareRuns } from '../rig/report/compareRuns.ts';
import { run, samples, scenario } from './support/runResultFixture.ts';

const latencies = samples(2_000, 20_000, 400_000, 3);
const scale = (values: number[], factor: number) => values.map((v) => v * factor);

describe('the exit code', () => {
  const at = (loadPerCore: number, factor: number) => {
    const r = run([scenario('load', { latencies: { resume_latency: scale(latencies, factor) } })]);
    return { ...r, rig: { ...r.rig, loadPerCore } };
  };

  it('is 3 when the gate could not judge a row and found no regression: never a pass', () => {
    // A 3x slower run on an overloaded machine is not compared; that must not read as green.
    const blind = compareRuns(at(0.4, 1), at(5.4, 3));
    expect(blind.regressions).toEqual([]);
    expect(compareExit(blind, false)).toBe(3);
    expect(compareExit(blind, true)).toBe(0);
    expect(compareExit(compareRuns(at(0.4, 1), at(0.4, 1)), false)).toBe(0);
    expect(compareExit(compareRuns(at(0.4, 1), at(0.4, 3)), true)).toBe(1);
  });
});

describe("report.html's baseline section", () => {
  it('says what the gate says: "not judged" when rows were not compared, never "no regression"', () => {
    const r = run([scenario('load', { latencies: { resume_latency: latencies } })]);
    const overloaded = { ...r, rig: { ...r.rig, loadPerCore: 5.4 } };
    const section = String(baselineSection(compareWithBaseline(r, overloaded)));
    expect(section).toContain(
      '<h2>Against the baseline: not judged: 1 row not compared, no regression among the rest</h2>',
    );
    expect(String(baselineSection(compareWithBaseline(r, r)))).toContain(
      '<h2>Against the baseline: no regression</h2>',
    );
  });
});
