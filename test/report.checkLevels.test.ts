// Requirement levels: only a failed MUST fails a scenario; a failed SHOULD or contract-example-shape
// check is a warning — the scenario passes with it, counted (results.json), listed in the terminal
// summary, summary.md, report.html and junit.xml (a passing testcase: a property and WARN lines in
// its system-out) — and --strict (judgeWarnings) fails it. Merging keeps the levels.
import { describe, expect, it } from 'vitest';
import {
  checkedLevel,
  judgeWarnings,
  runWarnings,
  verdictOfChecks,
  type CheckResult,
} from '../rig/results/checkResult.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import { junitXml } from '../rig/report/junitXml.ts';
import { mergeRuns } from '../rig/report/merge/mergeRuns.ts';
import { summaryMarkdown } from '../rig/report/summaryMarkdown.ts';
import { terminalSummary } from '../rig/report/terminal/terminalSummary.ts';
import { parseJunit } from './support/rigCli.ts';
import { mergeInputs, run, scenario } from './support/runResultFixture.ts';

const must: CheckResult = { name: 'validation_errors is an array', ok: true };
const shape: CheckResult = { name: 'error.data has prompt_id', ok: false, detail: 'absent', level: 'example' };
const should: CheckResult = { name: 'prompt ≤ 4096 characters', ok: false, detail: '5000', level: 'SHOULD' };
const broke: CheckResult = { name: '422 for an invalid payload', ok: false, detail: 'got 200' };
const unsure: CheckResult = { name: 'tax', ok: false, judged: false, detail: 'straddles' };

/** A run of one cf3 whose checks are `checks`, judged as the engine judges them. */
function judgedRun(checks: CheckResult[], strict = false): RunResult {
  const s = judgeWarnings(scenario('cf3', { checks, ...verdictOfChecks(checks) }), strict);
  return { ...run([s]), ...runWarnings([s], strict) };
}

describe('a check level', () => {
  it('a failed SHOULD or example check does not fail the scenario; a failed MUST does', () => {
    expect(verdictOfChecks([must, shape, should])).toEqual({ verdict: 'passed' });
    expect(verdictOfChecks([shape, broke])).toEqual({
      verdict: 'failed',
      reason: '422 for an invalid payload: got 200',
    });
    expect(verdictOfChecks([shape, unsure]).verdict).toBe('inconclusive');
  });

  it('judgeWarnings counts them; --strict fails a passed or inconclusive scenario on the first', () => {
    const passed = scenario('cf3', { checks: [must, shape, should] });
    expect(judgeWarnings(passed, false)).toMatchObject({ verdict: 'passed', warnings: 2 });
    expect(judgeWarnings(passed, true)).toMatchObject({
      verdict: 'failed',
      warnings: 2,
      reason: 'example shape check failed under --strict: error.data has prompt_id: absent',
    });
    const unsureToo = scenario('cf3', { verdict: 'inconclusive', checks: [unsure, should] });
    expect(judgeWarnings(unsureToo, true).verdict).toBe('failed');
    const errored = scenario('cf3', { verdict: 'errored', reason: 'threw', checks: [should] });
    expect(judgeWarnings(errored, true)).toMatchObject({ verdict: 'errored', reason: 'threw', warnings: 1 });
    expect(judgeWarnings(scenario('cf3', { checks: [must] }), true)).not.toHaveProperty('warnings');
  });

  it('ctx.check takes MUST, SHOULD or example, and refuses anything else', () => {
    expect(checkedLevel('c', undefined)).toBeUndefined();
    expect(checkedLevel('c', { level: 'MUST' })).toBeUndefined();
    expect(checkedLevel('c', { level: 'SHOULD' })).toBe('SHOULD');
    expect(() => checkedLevel('c', { level: 'should' as 'SHOULD' })).toThrow(
      'check "c": level "should" is not one of MUST, SHOULD, example',
    );
  });
});

describe('the outputs of a run that passed with warnings', () => {
  const result = judgedRun([must, shape, should]);

  it('results.json counts them; the run passes', () => {
    expect(result.verdict).toBe('passed');
    expect(result.warnings).toBe(2);
    expect(result.scenarios[0]!.warnings).toBe(2);
    expect(result).not.toHaveProperty('strict');
  });

  it('the terminal summary counts and lists them with their level', () => {
    const text = terminalSummary(result, { width: 200 });
    expect(text).toMatch(/^a2a-rig PASSED/);
    expect(text).toContain(
      'warnings    2 warnings (a failed SHOULD or contract-example-shape check): the scenarios pass with them; ' +
        '--strict fails them',
    );
    expect(text).toContain('↳ passed with 2 warnings (below)');
    expect(text).toContain('cf3 · example shape · error.data has prompt_id: absent');
    expect(text).toContain('cf3 · SHOULD · prompt ≤ 4096 characters: 5000');
    expect(text).not.toContain('failed checks');
  });

  it('summary.md: a Warnings section, the count in the verdict cell', () => {
    const md = summaryMarkdown(result);
    expect(md).toMatch(/^# a2a-rig passed/);
    expect(md).toContain('| cf3 | PASS<br>2 warnings |');
    expect(md).toContain('## Warnings (SHOULD and contract-example shape)');
    expect(md).toContain('- **cf3** · example shape · error.data has prompt\\_id: absent');
    expect(md).not.toContain('## Failed checks');
  });

  it('report.html marks each warning with its level', () => {
    const page = htmlReport(result);
    expect(page).toContain('<li class="warn"><span class="mark">!</span> <span class="level">SHOULD</span> ');
    expect(page).toContain('<strong>2 warnings</strong>');
    expect(page).toContain('<p class="headline warned">Warnings: 2 warnings');
  });

  it('junit.xml: a passing testcase with a warnings property and WARN lines first in system-out', () => {
    const xml = junitXml(result);
    expect(parseJunit(xml)).toEqual([{ name: 'cf3' }]);
    expect(xml).toContain('<properties><property name="warnings" value="2"/></properties>');
    expect(xml).toContain(
      '<system-out>WARN example shape · error.data has prompt_id: absent\n' +
        'WARN SHOULD · prompt ≤ 4096 characters: 5000\nok ',
    );
    expect(xml).toContain('failures="0"');
  });
});

describe('--strict', () => {
  it('the warning fails the run, and every output says it failed on it', () => {
    const result = judgedRun([must, shape], true);
    expect(result).toMatchObject({ verdict: 'failed', warnings: 1, strict: true });
    const [testcase] = parseJunit(junitXml(result));
    expect(testcase!.failure).toBe('example shape check failed under --strict: error.data has prompt_id: absent');
    expect(summaryMarkdown(result)).toMatch(/^# a2a-rig FAILED/);
    expect(terminalSummary(result, { width: 200 })).toContain('--strict failed each scenario that had one');
  });
});

describe('merge', () => {
  it('keeps the level of a check and counts the warning; a warning is no check left unjudged', () => {
    const a = judgedRun([must, shape]);
    const b = judgedRun([must, { ...shape, ok: true, detail: undefined }]);
    const merged = mergeRuns(mergeInputs({ ...a, runId: 'a' }, { ...b, runId: 'b' }), 'ab');
    expect(merged.verdict).toBe('passed');
    expect(merged.warnings).toBe(1);
    const check = merged.scenarios[0]!.checks[1]!;
    expect(check).toMatchObject({ name: shape.name, ok: false, level: 'example' });
    expect(check).not.toHaveProperty('judged');
    expect(check.detail).toContain('WARNING absent');
  });
});
