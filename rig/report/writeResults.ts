// Writes a run's files into its directory: results.json, junit.xml, summary.md and report.html.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlReport, type HtmlReportOptions } from './html/htmlReport.ts';
import { junitXml } from './junitXml.ts';
import type { RunResult } from '../results/runResult.ts';
import { summaryMarkdown } from './summaryMarkdown.ts';

export const RESULT_FILES = ['results.json', 'junit.xml', 'summary.md', 'report.html'] as const;

/** `report`: what report.html is drawn with beyond the run (a baseline to compare with). */
export function writeResults(dir: string, run: RunResult, report: HtmlReportOptions = {}): string[] {
  mkdirSync(dir, { recursive: true });
  const files: Array<[string, string]> = [
    ['results.json', `${JSON.stringify(run, null, 2)}\n`],
    ['junit.xml', junitXml(run)],
    ['summary.md', summaryMarkdown(run)],
    ['report.html', htmlReport(run, report)],
  ];
  for (const [name, text] of files) writeFileSync(join(dir, name), text);
  return files.map(([name]) => join(dir, name));
}
