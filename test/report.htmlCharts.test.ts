// report.html's figures and charts of issue 15, from hand-made results in the shapes the engine
// writes (test/support/reportFixtures.ts): headline figures, traffic over time and per operation,
// the capacity curve, latency strips with rate steps, the faults timeline on the same x axis,
// percentiles hidden where n is too small, anchors, the baseline comparison, and a result from
// before traffic was recorded. Drawn for real in headless Chromium: report.htmlChartsChromium.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capacityFinding, capacityText } from '../rig/report/html/charts/capacityCharts.ts';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import { minSamplesFor, percentileShown } from '../rig/report/sampleSize.ts';
import { scenarioAnchors } from '../rig/report/html/scenarioAnchors.ts';
import { writeResults } from '../rig/report/writeResults.ts';
import { BROKEN_AT_80, capacityScenario, faultScenario, richRun } from './support/reportFixtures.ts';
import { run, samples, scenario } from './support/runResultFixture.ts';

/** The article of the scenario anchored `id`. */
function article(text: string, id: string): string {
  const start = text.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(0);
  return text.slice(start, text.indexOf('</article>', start));
}

describe('sample sizes', () => {
  // One rule with thresholds and compare (issue 23): shown when n bounds its 95 % interval above.
  it('a percentile needs n to bound its interval: p50 6, p90 36, p95 72, p99 368', () => {
    expect([50, 90, 95, 99, 99.9].map(minSamplesFor)).toEqual([6, 36, 72, 368, 5661]);
    expect(percentileShown(71, 95)).toBe(false);
    expect(percentileShown(72, 95)).toBe(true);
    expect(percentileShown(367, 99)).toBe(false);
    expect(percentileShown(368, 99)).toBe(true);
    expect(percentileShown(5, 50)).toBe(false);
  });
});

describe('what the capacity search found', () => {
  it('a break: the step before it; every step held to the top rate: the cap; no step held: none', () => {
    const broke = capacityFinding(capacityScenario(BROKEN_AT_80))!;
    expect(broke).toMatchObject({ kind: 'broke', capacity: 40 });
    expect(broke.brokeAt!.x).toBe(80);
    expect(capacityText(broke).value).toBe('40/s');
    const cap = capacityFinding(capacityScenario({ rates: [5, 10, 20, 40], maxRate: 40 }))!;
    expect(cap).toMatchObject({ kind: 'cap', capacity: 40 });
    expect(capacityText(cap).detail).toBe("cap reached: the profile's top rate 40/s passed, capacity is above it");
    // growth 2: after 20/s the next step, 40/s, was within maxRate 40 and never ran.
    expect(capacityFinding(capacityScenario({ rates: [5, 10, 20], maxRate: 40 }))).toMatchObject({
      kind: 'budget',
      capacity: 20,
    });
    const none = capacityFinding(capacityScenario({ rates: [5], breakAt: 5 }))!;
    expect(capacityText(none)).toEqual({
      value: 'none',
      detail: 'no sustainable rate: the SLO broke at the first step, 5/s',
    });
    expect(capacityFinding(scenario('resume-latency'))).toBeUndefined();
  });

  it('a refined knee is read by rate: probes run after the ramp, and a break that was the rig’s', () => {
    // The ramp broke at 80/s; the bisection then held 40/s and broke at 60/s.
    const refined = capacityScenario({ rates: [5, 10, 20, 80, 40, 60], breakAt: 60 });
    expect(capacityFinding(refined)).toMatchObject({ kind: 'broke', capacity: 40, brokeAt: { x: 60 } });
    refined.series!.round_trip_p95_ms_vs_rate_per_s!.at(-1)!.limit = 'rig';
    const rig = capacityFinding(refined)!;
    expect(rig).toMatchObject({ kind: 'rig', capacity: 40 });
    expect(capacityText(rig)).toEqual({
      value: '≥ 40/s',
      detail: 'not judged: the load generator was the limit at 60/s, not the agent',
    });
  });
});

describe('report.html as text', () => {
  const text = htmlReport(richRun(BROKEN_AT_80));

  it('anchors each scenario by its name, unique, and links the verdict table to them', () => {
    for (const id of ['capacity', 'resume-latency', 'disconnect-replay', 'legacy-scenario']) {
      expect(text).toContain(`<article class="scenario `);
      expect(text).toMatch(new RegExp(`<article class="scenario \\w+" id="${id}">`));
      expect(text).toContain(`<a href="#${id}">`);
    }
    expect(scenarioAnchors(['capacity', 'Capacity', 'baseline', '<script>', '!!'])).toEqual([
      'capacity',
      'capacity-2',
      'baseline-2',
      'script',
      'scenario',
    ]);
  });

  it('has a contents list: its sections and each scenario, by the anchors the page uses', () => {
    const nav = text.slice(text.indexOf('<nav id="contents"'), text.indexOf('</nav>'));
    expect(nav).toContain('<a href="#verdicts">Verdicts</a>');
    for (const name of ['capacity', 'resume-latency', 'disconnect-replay', 'legacy-scenario'])
      expect(nav).toMatch(new RegExp(`<a href="#[^"]+" class="[a-z-]+">${name}</a>`));
    for (const [, id] of nav.matchAll(/href="#([^"]+)"/g)) expect(text).toContain(`id="${id}"`);
  });

  // Issue 23: a red FAILED REQUESTS card on a passing run whose failures were provoked on purpose.
  it('the failed-requests figure of a passing run whose faults provoked them is not red, and says so', () => {
    const chaos = faultScenario('disconnect-replay');
    const answer = chaos.traffic!.operations[1]!;
    chaos.traffic!.operations[1] = { ...answer, failed: 2, ok: answer.ok - 2 };
    const page = htmlReport(run([chaos], 'provoked'));
    expect(page).toContain('<div class="tile provoked" data-figure="errors">');
    expect(page).toContain('2 provoked by the faults of scenarios that passed');
    expect(page).not.toContain('tile bad" data-figure="errors"');
    // The same failures in a scenario that failed are red.
    const page2 = htmlReport(run([{ ...chaos, verdict: 'failed' }], 'not-provoked'));
    expect(page2).toContain('<div class="tile bad" data-figure="errors">');
  });

  it('headline figures: verdict, requests, error %, bytes, capacity, thresholds', () => {
    const head = text.slice(text.indexOf('id="headline"'), text.indexOf('</section>', text.indexOf('id="headline"')));
    const r = richRun(BROKEN_AT_80);
    const requests = r.scenarios.reduce((a, s) => a + (s.traffic?.totals.requests ?? 0), 0);
    const ops = r.scenarios.flatMap((s) => s.traffic?.operations ?? []);
    const failed = ops.reduce((a, o) => a + o.failed, 0);
    const refused = ops.reduce((a, o) => a + o.rpcErrors, 0);
    expect(requests).toBeGreaterThan(1000);
    expect(failed * refused).toBeGreaterThan(0);
    expect(head).toContain(
      'data-figure="requests"><div class="label">requests</div>' +
        `<div class="value">${requests.toLocaleString('en-US')}</div>` +
        '<div class="detail">2 of 4 scenarios recorded traffic</div>',
    );
    // Red for requests with no usable reply; the agent's refusals beside them, not counted as failures.
    expect(head).toContain(
      '<div class="tile bad" data-figure="errors"><div class="label">failed requests</div>' +
        `<div class="value">${((100 * failed) / requests).toFixed(2)} %</div>`,
    );
    expect(head).toContain(`${failed} of ${requests.toLocaleString('en-US')} got no usable reply`);
    expect(head).toContain(`${refused} refused by the agent`);
    expect(htmlReport(richRun({ rates: [5, 10, 20, 40], maxRate: 40 }))).not.toContain(
      'tile bad" data-figure="errors"',
    );
    expect(head).toMatch(
      /data-figure="bytes"><div class="label">data<\/div><div class="value">[\d.]+ kB <span class="unit">sent<\/span>/,
    );
    expect(head).toContain('<a href="#capacity">40/s</a>');
    expect(head).toContain('the SLO broke at 80/s');
    expect(head).toContain(
      'data-figure="thresholds"><div class="label">thresholds</div><div class="value">none given</div>',
    );
    const capped = htmlReport(richRun({ rates: [5, 10, 20, 40], maxRate: 40 }));
    expect(capped).toContain('<a href="#capacity">≥ 40/s</a>');
    expect(capped).toContain('cap reached: the profile&#39;s top rate 40/s passed, capacity is above it');
  });

  it(
    'per scenario: totals, throughput / errors / in-flight, ' + 'a table per operation with thin percentiles marked',
    () => {
      const cap = article(text, 'capacity');
      expect(cap).toMatch(/<p class="totals"><span><strong>[\d,]+<\/strong> requests<\/span>/);
      // Red for no usable reply; the agent's refusals beside them, plain.
      expect(cap).toMatch(
        // eslint-disable-next-line max-len -- the totals markup as rendered, as one pattern
        /<span class="bad"><strong>12<\/strong> failed \([\d.]+ %\)<\/span><span><strong>3<\/strong> refused by the agent/,
      );
      for (const chart of ['throughput', 'errors', 'in-flight', 'capacity-curve', 'capacity-achieved'])
        expect(cap, chart).toContain(`data-chart="${chart}"`);
      expect(cap).toContain('iterations offered /s');
      expect(cap).toContain('iterations achieved /s');
      for (const op of ['SendMessage', 'answer', 'GetTask', 'SubscribeToTask'])
        expect(cap).toContain(`<tr data-operation="${op}">`);
      // SubscribeToTask has n=4: every percentile marked.
      const sub = cap.slice(cap.indexOf('data-operation="SubscribeToTask"')).split('</tr>')[0]!;
      expect(sub).toContain('title="n=4: p50 needs n ≥ 6">n&lt;6</td>');
      expect(sub).toContain('title="n=4: p95 needs n ≥ 72">n&lt;72</td>');
      expect(sub).toContain('title="n=4: p99 needs n ≥ 368">n&lt;368</td>');
      // The closed-model scenario has no offered rate.
      expect(article(text, 'resume-latency')).not.toContain('iterations offered');
    },
  );

  it('latency over time: one strip per measure, rate steps shaded and named, no 16-series chart', () => {
    const cap = article(text, 'capacity');
    const strips = cap.split('data-chart="latency-over-time"').length - 1;
    expect(strips).toBe(2); // round_trip and resume_latency, each across every rate
    expect(cap).toContain('<figcaption>round_trip (every rate)</figcaption>');
    for (const rate of [5, 10, 20, 40, 80])
      expect(cap).toMatch(new RegExp(`<text class="span-label"[^>]*>${rate}/s<title>offered ${rate}/s: `));
    for (const svg of cap.split('<svg data-chart="latency-over-time"').slice(1))
      expect((svg.split('</svg>')[0]!.match(/<path class="series"/g) ?? []).length).toBe(2);
    // The two lines are each bucket's p50 and p99 (issue 23), with the bucket's n in each tooltip.
    const strip = article(text, 'resume-latency').split('<svg data-chart="latency-over-time"')[1]!.split('</svg>')[0]!;
    expect(strip).toMatch(/<title>p50: [\d.]+ s–[\d.]+ s: n=\d+, p50 [\d.]+ ms, p99 [\d.]+ ms, mean /);
    expect(strip).toMatch(/<title>p99: [\d.]+ s–[\d.]+ s: n=\d+, p50 /);
  });

  it('the capacity curve: SLO line, breaking point, p50–p99 band, achieved rate', () => {
    const curve = article(text, 'capacity').split('data-chart="capacity-curve"')[1]!.split('</svg>')[0]!;
    expect(curve).toMatch(/<line class="rule"[^>]*><title>SLO: p95 ≤ 1000 ms<\/title>/);
    expect(curve).toMatch(/<line class="marker"[^>]*><title>the SLO broke at 80\/s<\/title>/);
    expect(curve).toMatch(/<polygon class="band" points="[\d., ]+" fill="[^"]+"><title>p50–p99<\/title>/);
    const achieved = article(text, 'capacity').split('data-chart="capacity-achieved"')[1]!.split('</svg>')[0]!;
    expect(achieved).toContain('achieved: 80/s offered');
  });

  it('percentile curves stop where n stops carrying them; a metric of n < 2 is named, not drawn', () => {
    const oneSample = { ...scenario('tiny', { latencies: { probe_latency: samples(10, 1000, 9000), once: [5000] } }) };
    const page = article(htmlReport(run([oneSample])), 'tiny');
    const probe = page.split('<figcaption>probe_latency: latency by percentile')[1]!.split('</svg>')[0]!;
    // n = 10 carries p90 and nothing past it: no point beyond the 90 % tick.
    const xs = [...probe.matchAll(/<title>probe_latency \(n=10\): p([\d.]+) =/g)].map((m) => Number(m[1]));
    expect(xs.length).toBeGreaterThan(5);
    expect(Math.max(...xs)).toBeLessThanOrEqual(90);
    expect(page).not.toContain('once: latency by percentile');
    // The verdict table hides p95/p99 of n = 10.
    expect(htmlReport(run([oneSample]))).toMatch(
      /<span class="metric">probe_latency<\/span> [\d.]+ \/ – \/ – <span class="n">n=10<\/span>/,
    );
  });

  it('a result from before traffic was recorded says so, and draws no traffic chart', () => {
    const legacy = article(text, 'legacy-scenario');
    expect(legacy).toContain('Traffic: not recorded');
    expect(legacy).not.toContain('data-chart="throughput"');
    const old = htmlReport(run([scenario('old', { latencies: { probe_latency: samples(30, 1000, 9000) } })]));
    expect(old).toContain(
      'data-figure="requests"><div class="label">requests</div><div class="value">not recorded</div>',
    );
  });

  it('an errored scenario shows its stack and every scenario its log lines', () => {
    const errored = article(text, 'disconnect-replay');
    expect(errored).toContain(
      '<summary>Stack</summary><pre>TypeError: cannot read properties of undefined ' +
        '(reading &quot;taskId&quot;)\n    at run (scenarios/disconnectReplay.ts:48:22)',
    );
    expect(article(text, 'capacity')).toMatch(
      /<summary>Log \(5 lines\)<\/summary><pre><span class="t">2\.5 s<\/span> 5\/s: 10\/10 ok/,
    );
  });

  it('with a baseline: the rows of a2a-rig compare, regressions first, and a headline figure', () => {
    const page = htmlReport(richRun(BROKEN_AT_80), { baseline: richRun({ rates: [5, 10, 20, 40, 80], maxRate: 80 }) });
    const section = page.slice(
      page.indexOf('<section id="baseline">'),
      page.indexOf('</section>', page.indexOf('<section id="baseline">')),
    );
    expect(section).toMatch(/<h2>Against the baseline: <span class="bad">\d+ regressions<\/span><\/h2>/);
    expect(section).toMatch(/<tr class="regression"><td>capacity<\/td><td>round_trip\{rate=80\} p50<\/td>/);
    expect(page).toContain('data-figure="baseline"');
    expect(htmlReport(richRun(BROKEN_AT_80))).not.toContain('id="baseline"');
    const unrelated = htmlReport(richRun(BROKEN_AT_80), { baseline: run([scenario('other')]) });
    expect(unrelated).toContain('Not compared: the baseline and the current run share no scenario');
  });
});

describe('--baseline on the command line', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it(
    'report DIR --baseline DIR2 draws the comparison; ' +
      'a bad baseline is one line, exit 2, and run refuses it before any traffic',
    () => {
      const [current, baseline] = [
        mkdtempSync(join(tmpdir(), 'a2a-rig-html-cur-')),
        mkdtempSync(join(tmpdir(), 'a2a-rig-html-base-')),
      ];
      dirs.push(current, baseline);
      writeResults(current, richRun(BROKEN_AT_80));
      writeResults(baseline, richRun({ rates: [5, 10, 20, 40, 80], maxRate: 80 }));
      const ok = spawnSync(process.execPath, ['bin/a2a-rig.js', 'report', current, '--baseline', baseline], {
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(ok.stderr).toBe('');
      expect(ok.status).toBe(0);
      expect(readFileSync(join(current, 'report.html'), 'utf8')).toContain('<section id="baseline">');
      const bad = spawnSync(
        process.execPath,
        ['bin/a2a-rig.js', 'report', current, '--baseline', join(baseline, 'nope')],
        { encoding: 'utf8', timeout: 20_000 },
      );
      expect(bad.status).toBe(2);
      expect(bad.stderr.trim().split('\n')).toEqual([
        `a2a-rig: --baseline: ${join(baseline, 'nope')} does not exist: ` +
          'give a results.json or the directory a run wrote',
      ]);
      const out = join(current, 'never');
      const refused = spawnSync(
        process.execPath,
        ['bin/a2a-rig.js', 'run', 'resume-latency', '--out', out, '--baseline', join(baseline, 'nope')],
        { encoding: 'utf8', timeout: 30_000 },
      );
      expect(refused.status).toBe(2);
      expect(refused.stderr.trim().split('\n')).toEqual([
        `a2a-rig: --baseline: ${join(baseline, 'nope')} does not exist: ` +
          'give a results.json or the directory a run wrote',
      ]);
      expect(refused.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
    },
  );
});
