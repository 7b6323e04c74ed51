// The terminal summary (rig/report/terminal/terminalSummary.ts) over hand-made runs: plain text (no Markdown
// escape anywhere), within 100 columns whatever the agent said, every scenario line's columns at the
// same offsets, capacity in the headline (or "cap reached" when the profile's top step held), a
// percentile left out when its sample count cannot carry it, traffic totals when recorded and
// nothing invented when not. The runs are test/support/terminalSummaryFixtures.ts.
import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../rig/results/runResult.ts';
import { headlineMetric } from '../rig/report/scenarioHeadline.ts';
import { fit, wrap } from '../rig/report/terminal/terminalColumns.ts';
import { capacityLine } from '../rig/report/terminal/terminalHeadline.ts';
import { summaryWidth, terminalSummary } from '../rig/report/terminal/terminalSummary.ts';
import { rawControls } from './support/hostileAgent.ts';
import { run, samples, scenario } from './support/runResultFixture.ts';
import { capacity, fixtureRun, traffic } from './support/terminalSummaryFixtures.ts';

const VERDICT_WORD = /^ {2}(PASS|FAIL|ERROR|SKIP|STOPPED|NOT RUN) +\S/;

/** The scenario table's header and rows, and the header's column boundaries. */
function table(text: string) {
  const lines = text.split('\n');
  const header = lines.find((l) => /^\s+scenario\s+time\s+n\s+p50\s+p95\s+p99\s+max\s+latency[ (ms)…]*$/.test(l));
  expect(header, text).toBeDefined();
  const end = (word: string) => header!.indexOf(` ${word} `) + word.length + 1;
  const columns = {
    name: header!.indexOf('scenario'),
    time: end('time'),
    n: end('n'),
    p50: end('p50'),
    p95: end('p95'),
    p99: end('p99'),
    max: end('max'),
    latency: header!.indexOf('latency'),
  };
  return { lines, header: header!, columns, rows: lines.filter((l) => VERDICT_WORD.test(l)) };
}

describe('the terminal summary', () => {
  const text = terminalSummary(fixtureRun(), { files: ['/tmp/out/results.json', '/tmp/out/report.html'] });

  it('is plain text: no Markdown escape, table or emphasis, and no raw control from the agent', () => {
    for (const markdown of ['\\_', '<br>', '&lt;', '&amp;', '\\(', '\\)', '**', '|---', '| scenario |', '\\`'])
      expect(text, markdown).not.toContain(markdown);
    expect(text).toContain('<b>no</b> &');
    expect(rawControls(text)).toEqual([]);
    expect(text).toContain('agent \\u001b[31mRED');
  });

  it('fits 100 columns on every line but the result paths', () => {
    const long = text.split('\n').filter((l) => [...l].length > 100);
    expect(long, long.join('\n')).toEqual([]);
    // A reason too long for its line ends in an ellipsis rather than running on.
    expect(text).toMatch(/↳ needs a restartable agent[^\n]*\n[^\n]*…\n/);
  });

  it('fits a narrower terminal too (not under 72 columns), and 100 on a wider one or a pipe', () => {
    expect([
      summaryWidth({ isTTY: true, columns: 80 }),
      summaryWidth({ isTTY: true, columns: 200 }),
      summaryWidth({ isTTY: true, columns: 40 }),
      summaryWidth({ columns: 80 }),
    ]).toEqual([80, 100, 72, 100]);
    const narrow = terminalSummary(fixtureRun(), { width: 80 });
    const long = narrow.split('\n').filter((l) => [...l].length > 80);
    expect(long, long.join('\n')).toEqual([]);
    expect(table(narrow).rows).toHaveLength(7);
  });

  it("puts every scenario line's columns at the same offsets as the header's", () => {
    const { rows, columns } = table(text);
    expect(rows).toHaveLength(7);
    for (const row of rows) {
      const cell = (from: number, to: number) => row.slice(from, to).trim();
      // Every column boundary falls on a space: nothing spills over into the next column.
      for (const at of [columns.name - 1, columns.time, columns.n, columns.p50, columns.p95, columns.p99, columns.max])
        expect(row[at] ?? ' ', row).toBe(' ');
      expect(row.slice(columns.name, columns.name + 1), row).not.toBe(' ');
      expect(cell(columns.name, columns.time - 7), row).toMatch(/^[a-z0-9-]+…?$/);
      expect(cell(columns.time - 7, columns.time), row).toMatch(/^(\d+\.\d s|\d+m \d\ds)$/);
      expect(cell(columns.time, columns.n), row).toMatch(/^([\d,]+|–)$/);
      for (const [from, to] of [
        [columns.n, columns.p50],
        [columns.p50, columns.p95],
        [columns.p95, columns.p99],
        [columns.p99, columns.max],
      ] as const) {
        expect(cell(from, to), row).toMatch(/^([\d,]+(\.\d+)?|–)$/);
      }
    }
    const byName = (name: string) => rows.find((r) => r.slice(columns.name).startsWith(name))!;
    expect(byName('resume-latency').slice(columns.latency)).toBe('resume_latency');
    expect(byName('capacity').slice(columns.latency)).toBe('round_trip{rate=40}');
    // A name longer than its column is cut, with an ellipsis, and the columns after it stay put.
    expect(byName('a-scenario-with-a-very-')).toContain('…');
    expect(
      byName('a-scenario-with-a-very-')
        .slice(columns.time - 7, columns.time)
        .trim(),
    ).toBe('20m 35s');
  });

  it('shows n and leaves out the percentiles too few samples carry, saying why', () => {
    const { rows, columns } = table(text);
    const stats = (name: string) => {
      const row = rows.find((r) => r.slice(columns.name).startsWith(name))!;
      return [columns.n, columns.p50, columns.p95, columns.p99, columns.max].map((end, i, all) =>
        row.slice(i === 0 ? columns.time : all[i - 1], end).trim(),
      );
    };
    // n = 150: all but p99 (368); n = 10: p50 and max only (p95 needs 72); n = 30: no p99.
    expect(stats('resume-latency').map((v) => v !== '–')).toEqual([true, true, true, false, true]);
    const [n, p50, p95, p99, max] = stats('cf4');
    expect([n, p95, p99]).toEqual(['10', '–', '–']);
    expect(p50).toMatch(/^\d/);
    expect(max).toMatch(/^\d/);
    expect(stats('a-scenario')[3]).toBe('–');
    expect(stats('cf1')).toEqual(['–', '–', '–', '–', '–']);
    expect(text).toContain('– too few samples to carry that percentile (p95 needs n ≥ 72, p99 needs n ≥ 368');
  });

  it('headlines the verdicts, capacity, traffic and thresholds, the broken one with what it measured', () => {
    // The headline block, its wrapped rows joined.
    const head = text.split('\n\n')[1]!.replace(/\n {14}/g, ' ');
    expect(text.split('\n')[0]).toMatch(/^a2a-rig FAILED · profile smoke · 7 scenarios in 10\.0 s · run fixture-run$/);
    expect(head).toMatch(/^ {2}scenarios {3}4 passed · 1 failed · 1 errored · 1 skipped$/m);
    expect(head).toMatch(
      /^ {2}capacity {4}cap reached: top offered rate 40\/s held; capacity is above it \(p95 [\d.]+ ms/m,
    );
    expect(head).toMatch(/^ {2}traffic {5}180 round trips timed · 4,000 requests · 2\.00 MB sent, 6\.00 MB received$/m);
    // Failures are requests with no usable reply; the refusals the scenarios provoked stand beside
    // them, with where most are.
    expect(head).toMatch(
      // eslint-disable-next-line max-len -- the terminal line as printed, as one pattern
      /^ {2}errors {6}0 % failed \(0 of 4,000 requests got no usable reply\); 7 refused by the agent \(most provoked on purpose\), most in cf4 \(7\)$/m,
    );
    expect(head).toMatch(
      /^ {2}thresholds {2}1 held · 1 broken: resume_latency\.p95<5 — 7\.10 ms \(p95 of 150 samples\), needs < 5$/m,
    );
    expect(text).toMatch(
      /^thresholds\n {2}BROKEN resume_latency\.p95<5 {2}7\.10 ms[^\n]*\n {2}held {3}checks\.rate>=0\.5 {6}0\.8/m,
    );
  });

  it('lists failed checks wrapped, notes, where an error was thrown, and the result files', () => {
    expect(text).toMatch(
      /^failed checks\n {2}a-scenario-with-a-very-long-name-indeed · the agent answers \\u001b\[31mRED/m,
    );
    // Wrapped under itself, at most four lines, the last cut with an ellipsis.
    const check = text.split('failed checks\n')[1]!.split('\n\n')[0]!.split('\n');
    expect(check).toHaveLength(4);
    expect(check.slice(1).every((l) => /^ {6}\S/.test(l))).toBe(true);
    expect(check[3]).toMatch(/and then more words more words .*…$/);
    expect(text).toMatch(
      /^notes\n {2}my-scenario · pattern-backtracking not aimed: the live prompt has no <pattern>$/m,
    );
    expect(text).toContain(
      '↳ TypeError: x is not a function\n            thrown at /home/user/project/scenarios/my-scenario.ts:42:7\n',
    );
    expect(text.endsWith('results\n  /tmp/out/results.json\n  /tmp/out/report.html\n')).toBe(true);
  });

  it('colours only verdict words, and only when asked', () => {
    const coloured = terminalSummary(fixtureRun(), { color: true });
    expect(coloured).toContain('\u001b[32mPASS\u001b[0m');
    expect(coloured).toContain('\u001b[31mFAIL\u001b[0m');
    // eslint-disable-next-line no-control-regex
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(terminalSummary(fixtureRun()));
    expect(text).not.toContain('\u001b[');
  });
});

describe('capacity in the headline', () => {
  const one = (s: ScenarioResult) => run([s]);

  it('the highest rate that held, and where and why the SLO broke', () => {
    const line = capacityLine(one(capacity(20)))!;
    expect(line).toMatch(
      /^20 round trips\/s \(between 20 and 40\/s, 100 % apart\), p95 [\d.]+ ms \(n=40: too few for a p95\); /,
    );
    expect(line).toMatch(/; the SLO \(p95 ≤ 1000 ms\) broke at 40\/s: p95 [\d,.]+ ms, 3 of 80 failed$/);
  });

  it("marks a p95 its step's samples cannot carry (5/s for 2 s: n = 10)", () => {
    expect(capacityLine(one(capacity(5)))).toMatch(
      /^5 round trips\/s \(between 5 and 10\/s, 100 % apart\), p95 [\d.]+ ms \(n=10: too few for a p95\); the SLO/,
    );
  });

  it('"none" when the first step broke, "not measured" when capacity did not run, nothing without it', () => {
    expect(capacityLine(one(capacity(0)))).toMatch(/^none: the SLO \(p95 ≤ 1000 ms\) broke at 5\/s/);
    expect(
      capacityLine(
        one(scenario('capacity', { verdict: 'skipped', reason: 'the agent does not declare hitl-prompt/v1' })),
      ),
    ).toBe('not measured (capacity skipped: the agent does not declare hitl-prompt/v1)');
    expect(capacityLine(one(scenario('cf1')))).toBeUndefined();
  });

  it('a refined knee: the curve read by rate, not in the order run, with the resolution reached', () => {
    // The ramp held 20 and broke at 40; a bisection then probed 30 (held) and 35 (broke), run last.
    const refined = capacity(20);
    const curve = refined.series!.round_trip_p95_ms_vs_rate_per_s!;
    curve.push({ ...curve[2]!, x: 30 }, { ...curve[3]!, x: 35 });
    refined.params.resolutionPct = 20;
    expect(capacityLine(one(refined))).toMatch(
      /^30 round trips\/s \(between 30 and 35\/s, resolution 20 %\), .*broke at 35\/s/,
    );
  });

  it('the step that broke was the rig’s limit: a lower bound, not judged, and why', () => {
    const limited = capacity(20);
    const broke = limited.series!.round_trip_p95_ms_vs_rate_per_s!.at(-1)!;
    Object.assign(broke, { limit: 'rig', rig_saturated: 'the load generator was saturated: rig CPU 97 % of a core' });
    expect(capacityLine(one(limited))).toBe(
      '≥ 20 round trips/s, not judged: the load generator was the limit at 40/s (saturated: rig CPU 97 % of a core)',
    );
  });

  it('a search the budget cut short is a lower bound, not a cap', () => {
    const cut = capacity(40);
    cut.series!.round_trip_p95_ms_vs_rate_per_s = cut.series!.round_trip_p95_ms_vs_rate_per_s!.slice(0, 3);
    const line = capacityLine(one(cut))!;
    expect(line).toMatch(/^≥ 20 round trips\/s, p95 [\d.]+ ms \(n=40: too few for a p95\): /);
    expect(line).toMatch(/: the search stopped before the profile's top rate \(40\/s\)$/);
  });
});

describe('a threshold not judged', () => {
  it('is neither held nor broken: its own word and count, in the headline and the section', () => {
    const judged = {
      ...run([capacity(20)]),
      thresholds: [
        { expression: 'checks.rate>=0.5', ok: true, actual: 1, detail: '1 (1/1 passed), needs >= 0.5' },
        {
          expression: 'capacity:capacity_per_s>=100',
          ok: false,
          notJudged: true as const,
          actual: 20,
          detail: 'not judged: capacity: the load generator was the limit',
        },
      ],
    };
    const text = terminalSummary(judged);
    expect(text).toMatch(/^ {2}thresholds {2}1 held · 0 broken · 1 not judged: capacity:capacity_per_s>=100 — not/m);
    expect(text).toMatch(
      /^thresholds\n {2}held {7}checks\.rate>=0\.5 .*\n {2}NOT JUDGED capacity:capacity_per_s>=100 /m,
    );
    expect(text).not.toMatch(/BROKEN/);
  });
});

describe('older results and edge cases', () => {
  it('without traffic records: round trips only, no requests or error % invented', () => {
    const text = terminalSummary(run([capacity(40)]));
    expect(text).toMatch(/^ {2}traffic {5}150 round trips timed · requests not recorded in these results$/m);
    expect(text).not.toMatch(/^ {2}errors/m);
  });

  it('no errors: 0 % of the requests, nothing about kinds', () => {
    const text = terminalSummary(run([{ ...scenario('cf1'), traffic: traffic(100, 0) }]));
    expect(text).toMatch(
      // eslint-disable-next-line max-len -- the terminal line as printed, as one pattern
      /^ {2}traffic {5}100 requests · 50\.0 kB sent, 150 kB received\n {2}errors {6}0 % failed \(0 of 100 requests got no usable reply\)$/m,
    );
  });

  it('failures: the % of requests with no usable reply, and where most are', () => {
    const text = terminalSummary(
      run([
        { ...scenario('cf1'), traffic: traffic(100, 0) },
        { ...scenario('capacity'), traffic: traffic(300, 2, 8) },
      ]),
    );
    expect(text.replace(/\n {14}/g, ' ')).toMatch(
      // eslint-disable-next-line max-len -- the terminal line as printed, as one pattern
      /^ {2}errors {6}2\.00 % failed \(8 of 400 requests got no usable reply\), most in capacity \(8\); 2 refused by the agent \(most provoked on purpose\), most in capacity \(2\)$/m,
    );
  });

  it('a run with no latency and no traffic has no traffic line, and still aligns', () => {
    const text = terminalSummary(run([scenario('cf1'), scenario('cf2', { verdict: 'skipped', reason: 'no' })]));
    expect(text).not.toMatch(/^ {2}traffic/m);
    expect(table(text).rows).toHaveLength(2);
  });

  it(
    'the headline latency of a labelled family: at the capacity found, ' +
      'else the attack phase, else the most samples',
    () => {
      expect(headlineMetric(capacity(20))!.key).toBe('round_trip{rate=20}');
      const dos = scenario('dos-x', {
        latencies: {
          'legit_round_trip{phase=before}': samples(40, 1, 9),
          'legit_round_trip{phase=during}': samples(30, 1, 9),
        },
      });
      expect(headlineMetric(dos)!.key).toBe('legit_round_trip{phase=during}');
      expect(
        headlineMetric(scenario('s', { latencies: { 'm{k=a}': samples(3, 1, 9), 'm{k=b}': samples(9, 1, 9) } }))!.key,
      ).toBe('m{k=b}');
      expect(headlineMetric(scenario('s'))).toBeUndefined();
    },
  );

  it('fit and wrap keep to their width', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('abc', 4)).toBe('abc');
    expect(wrap('one two three four five six', 12, '- ', '  ')).toEqual(['- one two', '  three four', '  five six']);
    expect(wrap('one two three four five six', 12, '- ', '  ', 2)).toEqual(['- one two', '  three fou…']);
    // A word longer than a line is broken where the line ends, not cut.
    expect(wrap(`ab ${'x'.repeat(20)} cd`, 10, '', '  ')).toEqual(['ab xxxxxxx', '  xxxxxxxx', '  xxxxx cd']);
    expect(wrap('x'.repeat(30), 10, '', '', 2)).toEqual(['xxxxxxxxxx', 'xxxxxxxxx…']);
  });
});
