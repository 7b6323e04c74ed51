// `a2a-rig report DIR`: writes DIR/report.html again from DIR/results.json (after an upgrade of the
// rig, or for results merged or copied from elsewhere), with `--baseline DIR2` compared against
// another run's results (the rows of `a2a-rig compare`). Needs no agent and no network.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../../protocol/userError.ts';
import { htmlReport } from './htmlReport.ts';
import { readRunResult, resultsPath } from '../readRunResult.ts';
import type { RunResult } from '../../results/runResult.ts';

/**
 * Reads `--baseline` (a results directory or its results.json); a path that is not one is a
 * one-line UserError naming the flag, so `run` can call it before any traffic.
 */
export function readBaseline(fileOrDir: string): RunResult {
  try {
    return readRunResult(fileOrDir);
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`--baseline: ${err.message}`);
    throw err;
  }
}

/** Renders the results.json in `fileOrDir` into report.html beside it; returns the page's path. */
export function rewriteHtmlReport(fileOrDir: string, baselineDir?: string): string {
  const baseline = baselineDir === undefined ? undefined : readBaseline(baselineDir);
  const run = readRunResult(fileOrDir);
  const out = join(dirname(resolve(resultsPath(fileOrDir))), 'report.html');
  try {
    writeFileSync(out, htmlReport(run, { baseline }));
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
    .option(
      '--baseline <dir>',
      'compare with this earlier run (its directory or results.json) in the report, as a2a-rig compare would',
    )
    .action((dir: string, flags: { baseline?: string }) => {
      process.stdout.write(`${rewriteHtmlReport(dir, flags.baseline)}\n`);
    });
}
