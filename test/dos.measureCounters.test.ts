// The `measure` counter kind (rig/results/metricNames.ts) that the DoS gates record their values
// under (attack_tax, rss_growth_mb, recovery_s): declared like any counter, not compared between
// runs (its gate is its bound, and a ratio of two ratios says nothing), and merged as the worst
// part rather than a sum (two workers' taxes of 1.5 are not a tax of 3).
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../rig/report/compare/compareRuns.ts';
import { mergeRuns } from '../rig/report/merge/mergeRuns.ts';
import { validateRecords, type RecordedMeasures } from '../rig/results/metricNames.ts';
import { evaluateThreshold } from '../rig/report/thresholds/thresholdEvaluation.ts';
import { parseThreshold } from '../rig/report/thresholds/thresholdExpression.ts';
import { run, scenario } from './support/runResultFixture.ts';

const records: RecordedMeasures = {
  latencies: [],
  counters: { attack_tax: 'measure', 'attack_outcomes{attack,outcome}': 'tally' },
};

describe('measure counters', () => {
  it('is a kind a scenario may declare', () => {
    expect(() => validateRecords('dos-x', records)).not.toThrow();
  });

  it('is not compared between runs', () => {
    const base = run([scenario('dos-x', { counters: { attack_tax: 1.1 }, records })], 'a');
    const cur = run([scenario('dos-x', { counters: { attack_tax: 3.5 }, records })], 'b');
    const comparison = compareRuns(base, cur);
    expect(comparison.rows.filter((r) => r.measure === 'attack_tax')).toEqual([]);
    expect(comparison.regressions).toEqual([]);
  });

  it('merges as the worst part, while tallies still add up', () => {
    const part = (tax: number, id: string) => ({
      run: run(
        [
          scenario('dos-x', {
            counters: { attack_tax: tax, 'attack_outcomes{attack=slowloris,outcome=cut}': 4 },
            records,
          }),
        ],
        id,
      ),
      path: `${id}.json`,
    });
    const merged = mergeRuns([part(1.5, 'a'), part(2.5, 'b'), part(1.2, 'c')], 'm');
    expect(merged.scenarios[0]!.counters).toEqual({
      attack_tax: 2.5,
      'attack_outcomes{attack=slowloris,outcome=cut}': 12,
    });
  });

  it(
    'a threshold takes the highest value of a measure, ' + 'never the sum; .rate is refused; an unmeasured one breaks',
    () => {
      const labelled: RecordedMeasures = { latencies: [], counters: { 'attack_tax{attack}': 'measure' } };
      const result = run(
        [
          scenario('dos-a', {
            counters: { 'attack_tax{attack=slowloris}': 1.4, 'attack_tax{attack=slow-body}': 1.9 },
            records: labelled,
          }),
          scenario('dos-b', { counters: { 'attack_tax{attack=idle-connections}': 1.2 }, records: labelled }),
          scenario('dos-c', { counters: {}, records: labelled }),
        ],
        'r',
      );
      const judged = (expr: string) => evaluateThreshold(parseThreshold(expr), result);
      expect(judged('attack_tax<2')).toMatchObject({ ok: true, actual: 1.9 });
      expect(judged('attack_tax<1.5')).toMatchObject({ ok: false, actual: 1.9 });
      expect(judged('dos-a:attack_tax{attack=slowloris}<1.5')).toMatchObject({ ok: true, actual: 1.4 });
      expect(judged('attack_tax.rate<2')).toMatchObject({ ok: false, actual: null });
      expect(judged('dos-c:attack_tax<2')).toMatchObject({ ok: false, actual: null });
    },
  );
});
