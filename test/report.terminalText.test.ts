// What an agent says is data: every output meant for people (terminal lines, summary.md, the
// compare table, report.html, junit.xml) shows its control and bidi characters as `\uXXXX`, and
// junit.xml holds only characters XML 1.0 allows, so a strict parser (saxes) reads it.
import { describe, expect, it } from 'vitest';
import { comparisonMarkdown } from '../rig/report/compare/compareMarkdown.ts';
import { compareRuns, DEFAULT_COMPARE_OPTIONS } from '../rig/report/compare/compareRuns.ts';
import { htmlReport } from '../rig/report/html/htmlReport.ts';
import { junitXml } from '../rig/report/junitXml.ts';
import { endLine, startLine } from '../rig/report/terminal/progressOutput.ts';
import { escapeHtml } from '../rig/report/html/safeHtml.ts';
import { markdownCell, summaryMarkdown } from '../rig/report/summaryMarkdown.ts';
import { printable, printableLine } from '../rig/report/terminal/terminalText.ts';
import { brokenThresholdLines } from '../rig/report/thresholds/thresholdEvaluation.ts';
import type { RunResult } from '../rig/results/runResult.ts';
import { HOSTILE, rawControls } from './support/hostileAgent.ts';
import { parseJunit } from './support/rigCli.ts';
import { run, samples, scenario } from './support/runResultFixture.ts';

describe('printable', () => {
  it('shows every control, bidi and non-character as \\uXXXX', () => {
    expect(printable('a\u001b[31mb')).toBe('a\\u001b[31mb');
    expect(printable('\u0007\r\u0000\u007f')).toBe('\\u0007\\u000d\\u0000\\u007f');
    expect(printable('\u0085\u009b')).toBe('\\u0085\\u009b');
    expect(printable('x\u202ey\u2066z\u200f\u061c')).toBe('x\\u202ey\\u2066z\\u200f\\u061c');
    expect(printable('\u2028\u2029')).toBe('\\u2028\\u2029');
    expect(printable('\ufffe\uffff')).toBe('\\ufffe\\uffff');
    expect(printable('\ud800x\udfff')).toBe('\\ud800x\\udfff');
    expect(rawControls(printable(HOSTILE))).toEqual([]);
  });

  it('keeps tab, newline and ordinary text, astral characters included', () => {
    const text = 'tab\there\nnext line: é, 中文, עברית, 😀 (a surrogate pair), \\u001b typed by hand';
    expect(printable(text)).toBe(text);
  });

  it('is idempotent', () => {
    expect(printable(printable(HOSTILE))).toBe(printable(HOSTILE));
  });

  it('printableLine also shows a newline, so an agent cannot forge a line', () => {
    expect(printableLine('a\nb\tc\r')).toBe('a\\u000ab\tc\\u000d');
  });
});

function hostileRun(): RunResult {
  const r = run([
    scenario('skipped-one', { verdict: 'skipped', reason: `skip ${HOSTILE}`, checks: [] }),
    scenario('failed-one', {
      verdict: 'failed',
      reason: `fail ${HOSTILE}`,
      checks: [{ name: `check ${HOSTILE}`, ok: false, detail: `detail ${HOSTILE}` }],
    }),
    scenario('errored-one', { verdict: 'errored', reason: `error ${HOSTILE}` }),
  ]);
  return {
    ...r,
    target: { ...r.target, agentName: `agent ${HOSTILE}` },
    thresholds: [{ expression: `checks.rate>=1`, ok: false, actual: 0, detail: `measured ${HOSTILE}` }],
  };
}

describe('the outputs over agent strings', () => {
  it('junit.xml is well-formed (saxes) whatever an agent said, and shows what was there', () => {
    const xml = junitXml(hostileRun());
    const cases = parseJunit(xml);
    expect(cases.map((c) => c.name)).toEqual(['skipped-one', 'failed-one', 'errored-one', 'checks.rate>=1']);
    expect(cases[0]!.skipped).toContain('skip \\u001b[31mRED');
    expect(cases[0]!.skipped).toContain('\\ufffe-FFFE\\uffff-FFFF\\ud800-LONE');
    expect(cases[1]!.failure).toContain('fail \\u001b');
    expect(cases[2]!.error).toContain('\\u202eRTL');
    expect(rawControls(xml)).toEqual([]);
  });

  it('junit.xml holds no character XML 1.0 forbids, wherever it comes from (a scenario name)', () => {
    const xml = junitXml(run([scenario(`name\ufffe\uffff\u0001\ud800`)]));
    expect(parseJunit(xml).map((c) => c.name)).toEqual(['name\\ufffe\\uffff\\u0001\\ud800']);
  });

  it('summary.md, its cells and the broken-threshold lines carry no raw control', () => {
    const summary = summaryMarkdown(hostileRun());
    expect(rawControls(summary)).toEqual([]);
    // Markdown escapes the backslash, so the rendered page reads \u001b.
    expect(summary).toContain('skip \\\\u001b\\[31mRED');
    expect(markdownCell('a\r\nb\rc')).toBe('a b\\\\u000dc');
    const lines = brokenThresholdLines(hostileRun());
    expect(lines).toHaveLength(1);
    expect(rawControls(lines[0]!)).toEqual([]);
    expect(lines[0]).toContain('measured \\u001b[31mRED');
  });

  it('progress lines are one line each, controls shown', () => {
    const result = hostileRun().scenarios[0]!;
    const line = endLine({
      scenario: 'skipped-one',
      index: 0,
      total: 3,
      result: { ...result, reason: `two\nlines ${HOSTILE}` },
    });
    expect(line).not.toContain('\n');
    expect(rawControls(line)).toEqual([]);
    expect(line).toContain('two\\u000alines \\u001b[31mRED');
    expect(rawControls(startLine({ scenario: `s${HOSTILE}`, index: 0, total: 1 }))).toEqual([]);
  });

  it('report.html escapes markup and shows controls', () => {
    expect(escapeHtml(`<b>${HOSTILE}</b>`)).toContain('&lt;b&gt;\\u001b[31mRED');
    expect(rawControls(htmlReport(hostileRun()))).toEqual([]);
  });

  it('the compare table shows controls from a results.json it was given', () => {
    const named = (name: string, us: number[]) => run([scenario(name, { latencies: { [`m ${HOSTILE}`]: us } })]);
    const baseline = named(`s ${HOSTILE}`, samples(2000, 1000, 2000));
    const current = named(`s ${HOSTILE}`, samples(2000, 50_000, 90_000));
    const comparison = compareRuns(baseline, current, DEFAULT_COMPARE_OPTIONS);
    const text = comparisonMarkdown(comparison, baseline, current, DEFAULT_COMPARE_OPTIONS);
    expect(comparison.regressions.length).toBeGreaterThan(0);
    expect(rawControls(text)).toEqual([]);
    expect(text).toContain('\\\\u001b');
  });
});
