// `a2a-rig report DIR`: writes DIR/report.html again from DIR/results.json (after an upgrade of the
// rig, or for results merged or copied from elsewhere). Needs no agent and no network.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../protocol/userError.ts';
import { htmlReport } from './htmlReport.ts';
import { readRunResult, resultsPath } from './readRunResult.ts';

/** Renders the results.json in `fileOrDir` into report.html beside it; returns the page's path. */
export function rewriteHtmlReport(fileOrDir: string): string {
  const run = readRunResult(fileOrDir);
  const out = join(dirname(resolve(resultsPath(fileOrDir))), 'report.html');
  try {
    writeFileSync(out, htmlReport(run));
  } catch (err) {
    throw new UserError(`cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return out;
}

export function registerHtmlReportCommand(program: Command): void {
  program
    .command('report')
    .description('write report.html again from a results directory (or its results.json)')
    .argument('<dir>', 'a directory written by a2a-rig run or merge')
    .action((dir: string) => {
      process.stdout.write(`${rewriteHtmlReport(dir)}\n`);
    });
}
