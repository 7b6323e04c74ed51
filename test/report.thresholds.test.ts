// Thresholds: the grammar (good forms parse to the right bound in µs, bad ones are user errors
// naming the expression) and the evaluation against a run built from known samples.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../rig/protocol/userError.ts';
import {
  applyThresholds,
  brokenThresholdLines,
  evaluateThreshold,
  thresholdsNotJudged,
} from '../rig/report/thresholds/thresholdEvaluation.ts';
import { parseThreshold, parseThresholds } from '../rig/report/thresholds/thresholdExpression.ts';
import { histogramOf, run, samples, scenario } from './support/runResultFixture.ts';

describe('parseThreshold', () => {
  it.each([
    [
      'resume_latency.p95<1000',
      { name: 'resume_latency', stat: { kind: 'percentile', percentile: 95 }, op: '<', bound: 1_000_000 },
    ],
    [
      'cf4:resume_latency.p99 <= 250',
      {
        scenario: 'cf4',
        name: 'resume_latency',
        stat: { kind: 'percentile', percentile: 99 },
        op: '<=',
        bound: 250_000,
      },
    ],
    [
      'resume-latency:resume_latency.p(99.9)<2s',
      { scenario: 'resume-latency', stat: { kind: 'percentile', percentile: 99.9 }, bound: 2_000_000 },
    ],
    ['x.med>=0.5', { stat: { kind: 'percentile', percentile: 50 }, op: '>=', bound: 500 }],
    ['x.avg<1500us', { stat: { kind: 'mean' }, bound: 1500 }],
    ['x.max<3', { stat: { kind: 'max' }, bound: 3000 }],
    ['x.min>0', { stat: { kind: 'min' }, op: '>' }],
    ['x.count>=100', { stat: { kind: 'samples' }, bound: 100 }],
    ['answers_rejected<5', { name: 'answers_rejected', stat: { kind: 'counter' }, bound: 5 }],
    ['answers_accepted.rate>10', { stat: { kind: 'counterRate' }, bound: 10 }],
    ['checks.rate==1', { name: 'checks', stat: { kind: 'checkRate' }, op: '==', bound: 1 }],
    [
      'capacity:round_trip{rate=40}.p95<500',
      {
        scenario: 'capacity',
        name: 'round_trip{rate=40}',
        stat: { kind: 'percentile', percentile: 95 },
        bound: 500_000,
      },
    ],
    ['x{kind=a,rate=2.5}>=1', { name: 'x{kind=a,rate=2.5}', stat: { kind: 'counter' } }],
  ])('%s', (expression, expected) => {
    expect(parseThreshold(expression)).toMatchObject({ expression: expression.trim(), ...expected });
  });

  it('leaves the scope out when none is given', () => {
    expect(parseThreshold('resume_latency.p95<1000')).not.toHaveProperty('scenario');
  });

  it.each([
    ['resume_latency.p95<<3', 'not of the form'],
    ['resume_latency.p95', 'not of the form'],
    ['resume_latency.p95<fast', 'not of the form'],
    ['resume_latency.p0<3', 'percentile must be in'],
    ['resume_latency.p101<3', 'percentile must be in'],
    ['resume_latency.q95<3', 'not of the form'],
    ['answers.count<5ms', 'a unit (ms) only applies'],
    ['answers<5s', 'a unit (s) only applies'],
    ['checks<5', 'checks takes only .rate'],
    ['checks.p95<5', 'checks takes only .rate'],
    ['round_trip@40/s.p95<5', 'not of the form'],
    ['round_trip{rate}.p95<5', 'not of the form'],
  ])('refuses %s', (expression, why) => {
    const parse = () => parseThreshold(expression);
    expect(parse).toThrow(UserError);
    expect(parse).toThrow(`bad threshold "${expression}": ${why}`);
  });
});

describe('thresholds file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-thresholds-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads one expression per line, skipping comments and blanks, after the flags', () => {
    const file = join(dir, 'gate.txt');
    writeFileSync(file, '# latency\nresume_latency.p95<1000   # the spec says 1 s\n\n  checks.rate>=1\r\n');
    expect(parseThresholds(['x<1'], file).map((t) => t.expression)).toEqual([
      'x<1',
      'resume_latency.p95<1000',
      'checks.rate>=1',
    ]);
  });

  it('names a bad line, and a missing file, as user errors', () => {
    const file = join(dir, 'bad.txt');
    writeFileSync(file, 'ok<1\nresume_latency.p95 < soon\n');
    expect(() => parseThresholds([], file)).toThrow('bad threshold "resume_latency.p95 < soon"');
    expect(() => parseThresholds([], join(dir, 'absent.txt'))).toThrow(
      /cannot read --thresholds-file .*absent\.txt: ENOENT/,
    );
  });
});

describe('evaluateThreshold', () => {
  // Two scenarios share a metric with different distributions; the unscoped threshold must see their union.
  const fast = samples(400, 1_000, 5_000, 7);
  const slow = samples(100, 50_000, 90_000, 9);
  const union = histogramOf([...fast, ...slow]);
  const fixture = run([
    scenario('fast', {
      latencies: { resume_latency: fast },
      counters: { answers: 30, restarts: 1 },
      durationMs: 2_000,
    }),
    scenario('slow', {
      latencies: { resume_latency: slow },
      counters: { answers: 10 },
      durationMs: 3_000,
      checks: [
        { name: 'a', ok: true },
        { name: 'b', ok: false },
      ],
    }),
    scenario('skipped-one', { verdict: 'skipped', checks: [] }),
  ]);
  const judge = (expression: string) => evaluateThreshold(parseThreshold(expression), fixture);

  it('judges an unscoped latency stat on the union of the histograms, by its interval', () => {
    const p95Ms = union.percentileMs(95);
    // The union's p95 lies in the slow scenario's range; neither scenario alone has that p95.
    expect(p95Ms).toBeGreaterThan(40);
    // 500 samples bound a p95 within the slow range (50-90 ms): outside it the interval decides...
    expect(judge('resume_latency.p95<=95')).toMatchObject({ ok: true, actual: p95Ms });
    expect(judge('resume_latency.p95<45')).toMatchObject({ ok: false, actual: p95Ms });
    expect(judge('resume_latency.p95<45').notJudged).toBeUndefined();
    // ...at the estimate itself it cannot: not judged, which is neither held nor broken.
    for (const op of ['<=', '<'])
      expect(judge(`resume_latency.p95${op}${p95Ms}`)).toMatchObject({ ok: false, notJudged: true, actual: p95Ms });
    expect(judge('resume_latency.count==500')).toMatchObject({ ok: true, actual: 500 });
    // min and max as recorded, not rounded to their HDR bucket.
    expect(judge(`resume_latency.max==${Math.max(...slow)}us`).ok).toBe(true);
    expect(judge(`resume_latency.min==${Math.min(...fast)}us`).ok).toBe(true);
  });

  // The false PASS of issue 23: `p99<1000` "held" on 20 samples while the summary showed no p99.
  it('does not judge a p99 that 20 samples cannot bound, whichever side its estimate is on', () => {
    const few = run([scenario('cf4', { latencies: { resume_latency: samples(20, 1_000, 5_000, 3) } })]);
    const r = evaluateThreshold(parseThreshold('resume_latency.p99<1000'), few);
    expect(r).toMatchObject({ ok: false, notJudged: true });
    expect(r.detail).toMatch(/not judged — its 95 % interval \[[\d.]+ ms, unbounded\] from n=20/);
    expect(r.detail).toContain('bounded from above from n ≥ 368');
    // A lower bound the whole sample is above is decided from below, which 20 samples can do.
    expect(evaluateThreshold(parseThreshold('resume_latency.p99>0.5'), few)).toMatchObject({ ok: true });
    const applied = applyThresholds(few, [parseThreshold('resume_latency.p99<1000')]);
    expect(applied.verdict).toBe('inconclusive');
    expect(brokenThresholdLines(applied)).toEqual([
      expect.stringMatching(/^threshold not judged: resume_latency\.p99<1000 — /),
    ]);
  });

  it('judges a scoped threshold on that scenario only', () => {
    const fastP95Ms = histogramOf(fast).percentileMs(95);
    expect(fastP95Ms).toBeLessThan(6);
    expect(judge('fast:resume_latency.p95<6')).toMatchObject({ ok: true, actual: fastP95Ms });
    expect(judge('slow:resume_latency.p95<6').ok).toBe(false);
  });

  it('breaks when there is nothing to measure, saying why', () => {
    expect(judge('nothing.p95<1000')).toMatchObject({
      ok: false,
      actual: null,
      detail: 'no latency metric nothing was recorded by any scenario',
    });
    expect(judge('absent:resume_latency.p95<1000')).toMatchObject({
      ok: false,
      detail: 'scenario absent is not in this run',
    });
    expect(judge('skipped-one:resume_latency.p95<1000')).toMatchObject({
      ok: false,
      detail: 'no latency metric resume_latency was recorded in skipped-one',
    });
    expect(judge('skipped-one:checks.rate>=1')).toMatchObject({
      ok: false,
      detail: 'no checks were made in skipped-one',
    });
    expect(judge('resume_latency<5').detail).toContain('is a latency metric');
    expect(judge('answers.p95<5').detail).toContain('is a counter');
  });

  it('sums counters, breaks on one never recorded, and divides by scenario time for .rate', () => {
    expect(judge('answers==40')).toMatchObject({ ok: true, actual: 40 });
    expect(judge('answers<40').ok).toBe(false);
    expect(judge('fast:answers==30').ok).toBe(true);
    // A counter no scenario recorded breaks: a scenario that ran records its declared counters, 0 included.
    expect(judge('errors<1')).toMatchObject({
      ok: false,
      actual: null,
      detail: 'no counter errors was recorded by any scenario',
    });
    // 40 answers in 2 s + 3 s of scenario time.
    expect(judge('answers.rate>=8')).toMatchObject({ ok: true, actual: 8 });
    expect(judge('answers.rate>8').ok).toBe(false);
    // restarts: 1 in the 2 s of the only scenario that counted it.
    expect(judge('restarts.rate==0.5').ok).toBe(true);
  });

  it('measures checks.rate as the fraction of checks passed', () => {
    // fast: 1 ok check, slow: 1 ok + 1 failed → 2/3.
    expect(judge('checks.rate>=0.66')).toMatchObject({ ok: true, actual: 2 / 3 });
    expect(judge('checks.rate==1').ok).toBe(false);
    expect(judge('fast:checks.rate==1').ok).toBe(true);
  });
});

describe('applyThresholds', () => {
  const passing = run([scenario('s', { latencies: { resume_latency: [1_000, 2_000, 3_000] } })]);

  it('records results and fails the run when one breaks, naming it', () => {
    const judged = applyThresholds(passing, [
      parseThreshold('resume_latency.max<5'),
      parseThreshold('resume_latency.max<2'),
    ]);
    expect(judged.verdict).toBe('failed');
    expect(judged.thresholds!.map((t) => t.ok)).toEqual([true, false]);
    expect(brokenThresholdLines(judged)).toEqual([
      'threshold broken: resume_latency.max<2 — 3 ms (n=3 in s), needs < 2 ms',
    ]);
  });

  it('keeps the verdict when all hold, and adds nothing without thresholds', () => {
    expect(applyThresholds(passing, [parseThreshold('resume_latency.max<5')]).verdict).toBe('passed');
    expect(applyThresholds(passing, [])).not.toHaveProperty('thresholds');
  });

  it('replaces thresholds judged before (a merge re-judges its sources)', () => {
    const once = applyThresholds(passing, [parseThreshold('resume_latency.max<2')]);
    const again = applyThresholds({ ...once, verdict: 'passed' }, [parseThreshold('resume_latency.max<5')]);
    expect(again.thresholds!.map((t) => t.expression)).toEqual(['resume_latency.max<5']);
    expect(again.verdict).toBe('passed');
  });
});

describe('a measure its scenario did not judge (capacity when the rig was the limit)', () => {
  const why = 'capacity ≥ 40/s: the load generator was the limit at 80/s, ...';
  const capacity = (notJudged?: Record<string, string>) =>
    run([{ ...scenario('capacity', { counters: { capacity_per_s: 40 } }), ...(notJudged ? { notJudged } : {}) }]);

  it('is neither held nor broken: the run is not failed, and exits 3 saying so', () => {
    const judged = applyThresholds(capacity({ capacity_per_s: why }), [
      parseThreshold('capacity:capacity_per_s>=100'),
      parseThreshold('capacity:capacity_per_s>=10'),
    ]);
    expect(judged.thresholds!.map((t) => [t.ok, t.notJudged, t.actual])).toEqual([
      [false, true, 40],
      [false, true, 40],
    ]);
    expect(judged.verdict).toBe('inconclusive');
    expect(thresholdsNotJudged(judged)).toMatch(/^2 thresholds were not judged/);
    expect(brokenThresholdLines(judged)[0]).toBe(
      `threshold not judged: capacity:capacity_per_s>=100 — not judged: capacity: ${why}; ` +
        '40 (in capacity), needs >= 100',
    );
  });

  it('a broken threshold beside it still fails the run (exit 1); without the mark it is judged', () => {
    const both = applyThresholds(capacity({ capacity_per_s: why }), [
      parseThreshold('capacity:capacity_per_s>=10'),
      parseThreshold('checks.rate>=2'),
    ]);
    expect(both.verdict).toBe('failed');
    const judged = applyThresholds(capacity(), [parseThreshold('capacity:capacity_per_s>=10')]);
    expect([judged.thresholds![0]!.ok, judged.thresholds![0]!.notJudged, thresholdsNotJudged(judged)]).toEqual([
      true,
      undefined,
      undefined,
    ]);
  });
});

describe('labelled metrics', () => {
  const at40 = samples(200, 1_000, 5_000, 3);
  const at80 = samples(200, 50_000, 90_000, 4);
  const fixture = run([
    scenario('capacity', {
      latencies: { 'round_trip{rate=40}': at40, 'round_trip{rate=80}': at80 },
      counters: { 'errors{rate=40}': 1, 'errors{rate=80}': 4 },
    }),
  ]);
  const judge = (expression: string) => evaluateThreshold(parseThreshold(expression), fixture);

  it('judges one series by its labels, and every series of a base name together', () => {
    expect(judge(`round_trip{rate=40}.max==${Math.max(...at40)}us`).ok).toBe(true);
    expect(judge('round_trip{rate=40}.count==200').ok).toBe(true);
    expect(judge('round_trip.count==400').ok).toBe(true);
    expect(judge(`round_trip.max==${Math.max(...at80)}us`).ok).toBe(true);
    expect(judge('errors{rate=80}==4').ok).toBe(true);
    expect(judge('errors==5').ok).toBe(true);
    expect(judge('round_trip{rate=20}.p95<1')).toMatchObject({
      ok: false,
      detail: 'no latency metric round_trip{rate=20} was recorded by any scenario',
    });
  });
});
