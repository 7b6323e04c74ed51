// The run's verdict and how every output shows it: a run that tested nothing of hitl-prompt/v1 is
// `skipped` and says so in its headline (summary.md, report.html); a run a signal stopped is
// `interrupted` whatever else happened, its scenarios `interrupted` (junit error) and `not-run`
// (junit skipped); a run with a check not judged (and none failed) is `inconclusive`, shown as such
// everywhere and a junit skip, never a pass.
import { describe, expect, it } from 'vitest';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import { junitXml } from '../rig/report/junitXml.ts';
import { nothingTested, overallVerdict, verdictOfChecks, type ScenarioResult } from '../rig/results/runResult.ts';
import { summaryMarkdown } from '../rig/report/summaryMarkdown.ts';
import { terminalSummary } from '../rig/report/terminal/terminalSummary.ts';
import { parseJunit } from './support/rigCli.ts';
import { run, scenario } from './support/runResultFixture.ts';

const NOT_DECLARED = 'the agent does not declare hitl-prompt/v1 in its card';
const tagged = (s: ScenarioResult, tags: string[]): ScenarioResult => ({ ...s, tags });
const skippedHitl = (name: string) =>
  tagged(scenario(name, { verdict: 'skipped', reason: NOT_DECLARED, checks: [] }), ['conformance', 'hitl']);
const agentCard = tagged(scenario('agent-card'), ['conformance', 'a2a']);

describe('overallVerdict and nothingTested', () => {
  it('every hitl scenario skipped beside a passing agent-card: skipped, nothing tested', () => {
    const scenarios = [agentCard, skippedHitl('cf1'), skippedHitl('cf2')];
    expect(overallVerdict(scenarios)).toBe('skipped');
    expect(nothingTested(scenarios)).toBe(
      `nothing was tested: all 2 scenarios that test hitl-prompt/v1 were skipped (${NOT_DECLARED})`,
    );
  });

  it('one hitl scenario ran: passed, something was tested', () => {
    const scenarios = [agentCard, tagged(scenario('cf1'), ['hitl']), skippedHitl('cf2')];
    expect(overallVerdict(scenarios)).toBe('passed');
    expect(nothingTested(scenarios)).toBeUndefined();
  });

  it('no hitl scenario selected: only when all skipped', () => {
    expect(overallVerdict([agentCard])).toBe('passed');
    const skipped = tagged(scenario('agent-card', { verdict: 'skipped', reason: 'x', checks: [] }), ['a2a']);
    expect(overallVerdict([skipped])).toBe('skipped');
    expect(nothingTested([skipped])).toBe('nothing was tested: all 1 scenarios were skipped (x)');
  });

  it("a scenario's checks: failed beats not judged, which beats passed", () => {
    const unsure = { name: 'tax', ok: false, judged: false as const, detail: 'straddles' };
    const broke = { name: 'no 5xx', ok: false, detail: '2 of 9' };
    expect(verdictOfChecks([{ name: 'a', ok: true }, unsure])).toEqual({
      verdict: 'inconclusive',
      reason: 'tax: straddles',
    });
    expect(verdictOfChecks([unsure, broke])).toEqual({ verdict: 'failed', reason: 'no 5xx: 2 of 9' });
    expect(verdictOfChecks([{ name: 'a', ok: true }])).toEqual({ verdict: 'passed' });
    expect(verdictOfChecks([]).verdict).toBe('errored');
  });

  it('inconclusive: beats passed, loses to failed', () => {
    const unsure = scenario('dos-slow', { verdict: 'inconclusive' });
    expect(overallVerdict([agentCard, unsure])).toBe('inconclusive');
    expect(overallVerdict([scenario('a', { verdict: 'failed' }), unsure])).toBe('failed');
    expect(nothingTested([unsure])).toBeUndefined();
  });

  it('interrupted wins over failed', () => {
    const scenarios = [
      scenario('a', { verdict: 'failed' }),
      scenario('b', { verdict: 'interrupted' }),
      scenario('c', { verdict: 'not-run' }),
    ];
    expect(overallVerdict(scenarios)).toBe('interrupted');
  });
});

describe('the outputs', () => {
  it('nothing tested: NOTHING TESTED in summary.md and report.html', () => {
    const result = run([agentCard, skippedHitl('cf1')]);
    const summary = summaryMarkdown(result);
    expect(summary).toMatch(/^# a2a-rig NOTHING TESTED/);
    expect(summary).toContain('**Nothing was tested: all 1 scenarios that test hitl-prompt/v1 were skipped');
    const html = htmlReport(result);
    expect(html).toContain(
      '<p class="headline skipped">Nothing was tested: all 1 scenarios that test hitl-prompt/v1 were skipped',
    );
  });

  it('inconclusive: NOT JUDGED in every output, the check listed apart, a junit skip', () => {
    const tax = 'slowloris: attack tax — legitimate round-trip p50 in its bursts';
    const detail = 'tax ×1.90 [1.2, 2.6] (p50 over 3 bursts, n=40/60; bound ×2.00): the interval straddles the bound';
    const unsure = scenario('dos-slow', {
      verdict: 'inconclusive',
      reason: `${tax}: ${detail}`,
      checks: [
        { name: 'slowloris: no 5xx to attack requests', ok: true },
        { name: tax, ok: false, judged: false, detail },
      ],
    });
    const result = run([scenario('cf1'), unsure]);
    expect(result.verdict).toBe('inconclusive');
    const summary = summaryMarkdown(result);
    expect(summary).toMatch(/^# a2a-rig NOT JUDGED/);
    expect(summary).toContain('could not be judged either way. Not judged is not passed');
    expect(summary).toMatch(/\| dos-slow \| NOT JUDGED \|/);
    expect(summary).toContain('## Checks not judged');
    expect(summary).not.toContain('## Failed checks');
    const html = htmlReport(result);
    expect(html).toContain('<title>a2a-rig NOT JUDGED');
    expect(html).toContain('<span class="badge inconclusive">NOT JUDGED</span>');
    expect(html).toContain('<li class="unsure"><span class="mark">?</span>');
    const text = terminalSummary(result, { color: false, width: 100 });
    expect(text).toContain('checks not judged');
    expect(text).not.toContain('failed checks');
    expect(text).toMatch(/UNSURE\s+dos-slow/);
    const xml = junitXml(result);
    expect(xml).toMatch(/<testsuite name="a2a-rig [^"]*" tests="2" failures="0" errors="0" skipped="1"/);
    expect(parseJunit(xml)).toEqual([{ name: 'cf1' }, { name: 'dos-slow', skipped: `not judged: ${tax}: ${detail}` }]);
  });

  it('interrupted: headline, badges and junit error/skipped', () => {
    const result = {
      ...run([
        scenario('cf1'),
        scenario('capacity', { verdict: 'interrupted', reason: 'interrupted by SIGINT' }),
        scenario('cf2', { verdict: 'not-run', reason: 'not run: the run was interrupted by SIGINT', checks: [] }),
      ]),
      interruptedBy: 'SIGINT',
    };
    expect(result.verdict).toBe('interrupted');
    const summary = summaryMarkdown(result);
    expect(summary).toMatch(/^# a2a-rig INTERRUPTED/);
    expect(summary).toContain('**Interrupted by SIGINT**: these are the results so far; 1 scenario was not run.');
    expect(summary).toMatch(/\| capacity \| INTERRUPTED \|/);
    expect(summary).toMatch(/\| cf2 \| NOT RUN \|/);
    const html = htmlReport(result);
    expect(html).toContain('<title>a2a-rig INTERRUPTED');
    expect(html).toContain('<p class="headline interrupted">Interrupted by SIGINT');
    expect(html).toContain('<span class="count interrupted">1 interrupted</span>');
    expect(html).toContain('<span class="count not-run">1 not-run</span>');
    const xml = junitXml(result);
    expect(xml).toMatch(/<testsuite name="a2a-rig [^"]*" tests="3" failures="0" errors="1" skipped="1"/);
    expect(parseJunit(xml)).toEqual([
      { name: 'cf1' },
      { name: 'capacity', error: 'interrupted by SIGINT' },
      { name: 'cf2', skipped: 'not run: the run was interrupted by SIGINT' },
    ]);
  });
});
