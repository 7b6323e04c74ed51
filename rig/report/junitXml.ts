// junit.xml for CI test reporters: one testsuite per run, one testcase per scenario, failed checks
// as <failure>, skips with their reason; a scenario a signal interrupted is an <error>, one it never
// started a skip ("not run"). Every string from an agent is escaped.
import { checkFailed, checkNotJudged, type RunResult, type ThresholdResult } from '../results/runResult.ts';
import { checkWarned, warningText, type CheckResult } from '../results/checkResult.ts';
import { printable } from './terminal/terminalText.ts';
import { thresholdState, thresholdTally } from './thresholds/thresholdEvaluation.ts';

/**
 * What XML 1.0 allows (§2.2 Char): tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF.
 * Anything else (other C0 controls, U+FFFE, U+FFFF, a lone surrogate) makes the file not
 * well-formed, escaped as a character reference or not, and a CI reporter then drops the report.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function xml(text: string): string {
  // printable() shows controls, bidi overrides, U+FFFE/U+FFFF and lone surrogates as `\uXXXX`
  // (a CI log shows junit.xml's text on a terminal); NOT_XML_CHAR is the XML rule itself, last.
  return printable(text)
    .replace(NOT_XML_CHAR, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * The schema's `time` attribute: seconds as a decimal that CI tools parse, not a figure a person
 * reads, so not the figures module's `seconds` (which may say "16m 40s").
 */
const xmlSeconds = (ms: number) => (ms / 1000).toFixed(3);

export function junitXml(run: RunResult): string {
  const count = (...v: string[]) => run.scenarios.filter((s) => v.includes(s.verdict)).length;
  const cases = run.scenarios.map((s) => {
    const time = xmlSeconds(s.durationMs);
    const open = `  <testcase classname="a2a-rig.${xml(run.profile)}" name="${xml(s.name)}" time="${time}">`;
    // The count first: <properties> leads a testcase in the schemas that allow it there.
    const body = s.warnings ? [`    <properties><property name="warnings" value="${s.warnings}"/></properties>`] : [];
    if (s.verdict === 'skipped' || s.verdict === 'not-run')
      body.push(`    <skipped message="${xml(s.reason ?? s.verdict)}"/>`);
    // Neither passed nor failed: a CI reporter shows it skipped, with why, never as a pass.
    if (s.verdict === 'inconclusive')
      body.push(`    <skipped message="${xml(`not judged: ${s.reason ?? 'a check could not be judged'}`)}"/>`);
    if (s.verdict === 'errored' || s.verdict === 'interrupted')
      body.push(`    <error message="${xml(s.reason ?? 'error')}"/>`);
    if (s.verdict === 'failed') {
      // Failed under --strict on warnings alone: they are what failed it.
      const failed = s.checks.some(checkFailed) ? s.checks.filter(checkFailed) : s.checks.filter(checkWarned);
      const text = failed.map((c) => `${c.name}${c.detail ? `: ${c.detail}` : ''}`).join('\n');
      body.push(`    <failure message="${xml(s.reason ?? 'check failed')}">${xml(text)}</failure>`);
    }
    // A warning leaves the testcase passing: as <failure> it would fail a build --strict did not ask
    // to fail, as <skipped> it would hide that the MUSTs were tested. Jenkins, GitLab and the
    // GitHub junit actions show a testcase's <system-out>, so the warnings lead it (WARN, with the
    // level); the count is a testcase <property> (as pytest and Surefire write them; above) for tools.
    const mark = (c: CheckResult) => (checkNotJudged(c) ? 'N/J ' : c.ok ? 'ok  ' : checkWarned(c) ? 'WARN' : 'FAIL');
    const text = (c: CheckResult) => (checkWarned(c) ? warningText(c) : `${c.name}${c.detail ? ` — ${c.detail}` : ''}`);
    const checks = [...s.checks.filter(checkWarned), ...s.checks.filter((c) => !checkWarned(c))]
      .map((c) => `${mark(c)} ${text(c)}`)
      .join('\n');
    if (checks) body.push(`    <system-out>${xml(checks)}</system-out>`);
    return [open, ...body, '  </testcase>'].join('\n');
  });
  // Thresholds are testcases of their own, so a CI test reporter names the broken one.
  const thresholds = run.thresholds ?? [];
  const tally = thresholdTally(thresholds);
  const timestamp = `timestamp="${xml(run.startedAt)}"`;
  // Not judged is a skipped testcase with why: a CI reporter must not count it as passed.
  const thresholdCase = (t: ThresholdResult) => {
    const open = `  <testcase classname="a2a-rig.thresholds" name="${xml(t.expression)}" time="0">`;
    const state = thresholdState(t);
    if (state === 'held') return `${open}<system-out>${xml(t.detail)}</system-out></testcase>`;
    const element = state === 'broken' ? 'failure' : 'skipped';
    return `${open}\n    <${element} message="${xml(t.detail)}"/>\n  </testcase>`;
  };
  const thresholdCounts =
    `tests="${thresholds.length}" failures="${tally.broken}" errors="0" ` + `skipped="${tally['not judged']}" time="0"`;
  const thresholdSuite = thresholds.length
    ? [
        `<testsuite name="a2a-rig ${xml(run.profile)} thresholds" ${thresholdCounts} ${timestamp}>`,
        ...thresholds.map(thresholdCase),
        '</testsuite>',
      ]
    : [];
  const errors = `errors="${count('errored', 'interrupted')}"`;
  const skippedAndTime = `skipped="${count('skipped', 'not-run', 'inconclusive')}" time="${xmlSeconds(run.durationMs)}"`;
  const allTests = `tests="${run.scenarios.length + thresholds.length}" failures="${count('failed') + tally.broken}"`;
  const allSkipped = `skipped="${count('skipped', 'not-run', 'inconclusive') + tally['not judged']}" time="${xmlSeconds(run.durationMs)}"`;
  const scenarioTests = `tests="${run.scenarios.length}" failures="${count('failed')}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="a2a-rig" ${allTests} ${errors} ${allSkipped}>`,
    `<testsuite name="a2a-rig ${xml(run.profile)}" ${scenarioTests} ${errors} ${skippedAndTime} ${timestamp}>`,
    ...cases,
    '</testsuite>',
    ...thresholdSuite,
    '</testsuites>',
    '',
  ].join('\n');
}
