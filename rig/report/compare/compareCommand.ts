// `a2a-rig compare`: the regression gate over results already written (compareRuns.ts), the
// Markdown on stdout, one line per regression and per undecided row on stderr, the exit code.
import { Option, type Command } from 'commander';
import { UserError } from '../../protocol/userError.ts';
import type { RunResult } from '../../results/runResult.ts';
import { compareExit, comparisonMarkdown } from './compareMarkdown.ts';
import {
  DEFAULT_COMPARE_OPTIONS,
  compareRuns,
  parseTolerances,
  ratioText,
  type CompareOptions,
} from './compareRuns.ts';
import { readRunResult } from '../readRunResult.ts';
import { printableLine } from '../terminal/terminalText.ts';

interface CompareFlags {
  baseline: string[];
  current: string[];
  tolerance: string[];
  confidence: number;
  allowInconclusive?: boolean;
  quietMachine?: boolean;
  noiseFloorMs?: string;
  minTailSamples?: string;
  maxLoadPerCore?: string;
}

const repeatable = (v: string, prev: string[]) => [...prev, v];

/** `--confidence 95%` (or 0.95, or 95). */
export function parseConfidence(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?%?$/.test(value.trim())) throw new UserError(`--confidence must be a percentage, got "${value}"`);
  const c = value.trim().endsWith('%') || n > 1 ? n / 100 : n;
  if (!(c >= 0.5 && c < 1)) throw new UserError(`--confidence must be between 50 % and 99.9 %, got "${value}"`);
  return c;
}

/** The flags the interval replaced: a script that still passes one is told, not silently judged otherwise. */
const GONE: Array<[keyof CompareFlags, string]> = [
  ['noiseFloorMs', '--noise-floor-ms'],
  ['minTailSamples', '--min-tail-samples'],
  ['maxLoadPerCore', '--max-load-per-core'],
];

/** Writes a comparison as compare prints it and returns its exit code. */
export function printComparison(
  baseline: RunResult[],
  current: RunResult[],
  options: CompareOptions,
  allowInconclusive: boolean,
): number {
  const comparison = compareRuns(baseline, current, options);
  process.stdout.write(comparisonMarkdown(comparison, baseline, current, options));
  for (const r of comparison.regressions) {
    const line = `regression: ${r.scenario} ${r.measure}: ${r.baseline} → ${r.current} (${ratioText(r)})`;
    process.stderr.write(`${printableLine(line)}\n`);
  }
  for (const r of comparison.notJudged) {
    const why = r.note ?? (r.interval ? `${ratioText(r)} straddles ${r.allowed}` : '');
    const line = `not judged: ${r.scenario} ${r.measure} (${r.result})${why ? `: ${why}` : ''}`;
    process.stderr.write(`${printableLine(line)}\n`);
  }
  return compareExit(comparison, allowInconclusive);
}

export function registerCompareCommand(program: Command): void {
  const command = program
    .command('compare')
    .description(
      'compare runs with baseline runs (95 % intervals against tolerances); Markdown table on stdout, ' +
        'exit 1 on a regression, 3 when a row is inconclusive',
    )
    .option(
      '--baseline <file>',
      'results.json of a reference run (or its directory); repeat for several runs',
      repeatable,
      [] as string[],
    )
    .option(
      '--current <dir>',
      'a run to judge: its directory or results.json; repeat for several',
      repeatable,
      [] as string[],
    )
    .option(
      '--tolerance <spec>',
      `the smallest change that matters, e.g. p95=+20%,throughput=-10%,p99=off (defaults: ${Object.entries(
        DEFAULT_COMPARE_OPTIONS.tolerances,
      )
        .map(([k, v]) => `${k}=${v > 0 ? '+' : ''}${v * 100}%`)
        .join(',')}; repeatable)`,
      repeatable,
      [] as string[],
    )
    .option('--confidence <pct>', 'of every interval', parseConfidence, DEFAULT_COMPARE_OPTIONS.confidence)
    .option(
      '--allow-inconclusive',
      'exit 0 instead of 3 when some rows are undecided (an interval straddling its tolerance, too few samples…)',
    )
    .option(
      '--quiet-machine',
      'the runs come from a dedicated, quiet machine: judge one run a side by its own samples ' +
        '(otherwise one run a side is inconclusive: on a shared machine runs differ more than that)',
    );
  for (const [, flag] of GONE) command.addOption(new Option(`${flag} <value>`).hideHelp());
  command.action((flags: CompareFlags) => {
    for (const [key, flag] of GONE)
      if (flags[key] !== undefined)
        throw new UserError(
          `${flag} is gone: compare now judges each row by a confidence interval against its tolerance ` +
            '(see docs/cli.md, "compare"); drop the flag',
        );
    for (const side of ['baseline', 'current'] as const)
      if (flags[side].length === 0) throw new UserError(`compare needs --${side} (one or more runs)`);
    const options: CompareOptions = {
      ...DEFAULT_COMPARE_OPTIONS,
      tolerances: parseTolerances(flags.tolerance),
      confidence: flags.confidence,
      quietMachine: flags.quietMachine === true,
    };
    const baseline = flags.baseline.map((f) => readRunResult(f));
    const current = flags.current.map((f) => readRunResult(f));
    process.exitCode = printComparison(baseline, current, options, flags.allowInconclusive === true);
  });
}
