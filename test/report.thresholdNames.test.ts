// Threshold names, checked before a run: a threshold names what the selected scenarios declare they
// record (labelled series, base names, checks.rate), the --help and README examples included, and
// a declaration the threshold grammar cannot name is refused.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../rig/protocol/userError.ts';
import { parseThreshold } from '../rig/report/thresholds/thresholdExpression.ts';
import { checkThresholdNames, type DeclaringScenario } from '../rig/report/thresholds/thresholdNames.ts';
import { addThresholdOptions } from '../rig/report/thresholds/thresholdOptions.ts';
import { loadCatalog, loadScenarios } from '../rig/engine/scenarioCatalog.ts';
import { writeReadmeExample } from './support/readmeExample.ts';
import { defineScenario } from '../rig/engine/kit/defineScenario.ts';
import { Command } from 'commander';

describe('threshold names, checked before a run', () => {
  const declaring: DeclaringScenario[] = [
    {
      name: 'capacity',
      records: {
        latencies: ['round_trip{rate}'],
        counters: { capacity_per_s: 'throughput', round_trips_failed: 'tally' },
      },
    },
    { name: 'cf4', records: { latencies: ['resume_latency'], counters: { trials: 'tally' } } },
  ];
  const check =
    (...expressions: string[]) =>
    () =>
      checkThresholdNames(expressions.map(parseThreshold), declaring);

  it('accepts declared names, labelled series, base names of labelled metrics and checks.rate', () => {
    expect(
      check(
        'resume_latency.p95<1000',
        'cf4:trials>=20',
        'cf4:checks.rate==1',
        'capacity:round_trip{rate=40}.p95<500',
        'round_trip.p99<2s',
        'capacity_per_s>=10',
        'checks.rate>=1',
        'trials.rate>1',
      ),
    ).not.toThrow();
  });

  it.each([
    ['p95<1000', 'no scenario of this run records a counter p95'],
    ['answers_rejected<5', 'no scenario of this run records a counter answers_rejected'],
    [
      'resume_latncy.p95<1000',
      'no scenario of this run records a latency metric resume_latncy (did you mean resume_latency?)',
    ],
    ['cf4:capacity_per_s>1', 'scenario cf4 records no counter capacity_per_s'],
    ['cf5:checks.rate>=1', 'scenario cf5 is not selected in this run (did you mean cf4?)'],
    ['cf44:trials>1', 'scenario cf44 is not selected in this run (did you mean cf4?)'],
    ['trials.p95<1', 'trials is a counter'],
    ['resume_latency<1', 'resume_latency is a latency metric'],
    ['round_trip{speed=40}.p95<1', 'round_trip is labelled {rate}, not {speed}'],
    ['resume_latency{rate=40}.p95<1', 'resume_latency is labelled {nothing}, not {rate}'],
  ])('refuses %s naming it in one line', (expression, why) => {
    expect(check(expression)).toThrow(UserError);
    expect(check(expression)).toThrow(`threshold "${expression}" names nothing this run can record: ${why}`);
  });

  it('every example in --help names what the scenarios really record', async () => {
    const help = addThresholdOptions(new Command()).options.find((o) => o.long === '--threshold')!.description;
    const examples = /e\.g\. (.*?) \(/.exec(help)![1]!.split(', ');
    expect(examples.length).toBeGreaterThan(2);
    const scenarios = await loadScenarios();
    expect(() => checkThresholdNames(examples.map(parseThreshold), scenarios)).not.toThrow();
  });

  it('every threshold the README shows names what the scenarios really record', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    // Every `--threshold X` whose X has a comparison (usage lines say `--threshold EXPR`).
    const shown = [...readme.matchAll(/--threshold '?([^'\s`]*[<>=][^'\s`]*)'?/g)].map((m) => m[1]!);
    expect(shown.length).toBeGreaterThan(5);
    // The README's own example scenario (answer-twice) is one of them: loaded as a reader would.
    const root = mkdtempSync(join(tmpdir(), 'a2a-rig-readme-'));
    try {
      const scenarios = (await loadCatalog([writeReadmeExample(root).dir])).scenarios;
      expect(scenarios.map((s) => s.name)).toContain('answer-twice');
      expect(() => checkThresholdNames(shown.map(parseThreshold), scenarios)).not.toThrow();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses a declaration the threshold grammar cannot name', () => {
    const define =
      (latencies: string[], counters: Record<string, 'tally'> = {}) =>
      () =>
        defineScenario({
          name: 'x',
          description: 'x',
          tags: [],
          needs: {},
          params: { smoke: {}, ci: {}, full: {} },
          budgetMs: { smoke: 1, ci: 1, full: 1 },
          records: { latencies, counters },
          run: async () => {},
        });
    expect(define(['round_trip@40/s'])).toThrow('metric name "round_trip@40/s" cannot be named in a threshold');
    expect(define(['a'], { a: 'tally' })).toThrow('declares a twice');
    expect(define(['round_trip{rate}'], { 'errors{kind}': 'tally' })).not.toThrow();
  });
});
