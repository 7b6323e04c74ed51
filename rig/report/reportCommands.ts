// `a2a-rig compare` (the regression gate) and `a2a-rig merge` (several runs into one, exactly):
// verbs over results already written, so they need no agent and no network.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../protocol/userError.ts';
import { compareExit, comparisonMarkdown } from './compareMarkdown.ts';
import { DEFAULT_COMPARE_OPTIONS, compareRuns, parseTolerances } from './compareRuns.ts';
import { mergeRuns } from './mergeRuns.ts';
import { mergeShardSet } from './mergeShardSet.ts';
import { readRunResult } from './readRunResult.ts';
import { readMergeInputs } from './shardInputs.ts';
import { checkShardSet } from '../results/shardSet.ts';
import { summaryColor, summaryWidth, terminalSummary } from './terminalSummary.ts';
import { applyThresholds, brokenThresholdLines } from './thresholdEvaluation.ts';
import { parseThreshold } from './thresholdExpression.ts';
import { checkThresholdNames, type DeclaringScenario } from './thresholdNames.ts';
import { addThresholdOptions, thresholdsFromFlags, type ThresholdFlags } from './thresholdOptions.ts';
import { writeResults } from './writeResults.ts';
import { printableLine } from './terminalText.ts';

interface CompareFlags {
  baseline: string;
  current: string;
  tolerance: string[];
  noiseFloorMs: number;
  minTailSamples: number;
  maxLoadPerCore: number;
  allowInconclusive?: boolean;
}

function nonNegative(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0)
      throw new UserError(`${flag} must be a number ≥ 0, got "${value}"`);
    return n;
  };
}

function mergedRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `merged-${stamp}-${randomBytes(2).toString('hex')}`;
}

export function registerReportCommands(program: Command): void {
  program
    .command('compare')
    .description(
      'compare a run with a baseline (ratios against tolerances); Markdown table on stdout, exit 1 on a regression',
    )
    .requiredOption('--baseline <file>', 'results.json of the reference run (or its directory)')
    .requiredOption('--current <dir>', 'the run to judge: its directory or its results.json')
    .option(
      '--tolerance <spec>',
      `allowed change, e.g. p95=+20%,throughput=-10%,p99=off (defaults: ${Object.entries(
        DEFAULT_COMPARE_OPTIONS.tolerances,
      )
        .map(([k, v]) => `${k}=${v! > 0 ? '+' : ''}${v! * 100}%`)
        .join(',')}; repeatable)`,
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option(
      '--noise-floor-ms <ms>',
      'latency increases up to this many ms are never regressions',
      nonNegative('--noise-floor-ms'),
      DEFAULT_COMPARE_OPTIONS.noiseFloorMs,
    )
    .option(
      '--max-load-per-core <n>',
      'compare latencies only when both runs started below this 1-minute load average per core',
      nonNegative('--max-load-per-core'),
      DEFAULT_COMPARE_OPTIONS.maxLoadPerCore,
    )
    .option(
      '--min-tail-samples <n>',
      'compare a percentile only with this many samples beyond it in both runs',
      nonNegative('--min-tail-samples'),
      DEFAULT_COMPARE_OPTIONS.minTailSamples,
    )
    .option(
      '--allow-inconclusive',
      'exit 0 instead of 3 when some rows could not be compared (too few samples, an overloaded machine…)',
    )
    .action((flags: CompareFlags) => {
      const options = {
        tolerances: parseTolerances(flags.tolerance),
        noiseFloorMs: flags.noiseFloorMs,
        minTailSamples: flags.minTailSamples,
        maxLoadPerCore: flags.maxLoadPerCore,
      };
      const baseline = readRunResult(flags.baseline);
      const current = readRunResult(flags.current);
      const comparison = compareRuns(baseline, current, options);
      process.stdout.write(comparisonMarkdown(comparison, baseline, current, options));
      for (const r of comparison.regressions) {
        const ratio = r.ratio === null ? '' : ` (×${r.ratio.toFixed(2)})`;
        const line = `regression: ${r.scenario} ${r.measure}: ${r.baseline} → ${r.current}${ratio}`;
        process.stderr.write(`${printableLine(line)}\n`);
      }
      for (const r of comparison.notJudged) {
        const line = `not judged: ${r.scenario} ${r.measure}${r.note ? `: ${r.note}` : ''}`;
        process.stderr.write(`${printableLine(line)}\n`);
      }
      process.exitCode = compareExit(comparison, flags.allowInconclusive === true);
    });

  addThresholdOptions(
    program
      .command('merge')
      .description(
        'add up runs of the same scenarios (e.g. workers on several machines) into one result: ' +
          'histograms added exactly, counters summed',
      )
      .argument(
        '<dirs...>',
        "results directories (or results.json files) to merge; a shard set's directory (shard-<i>/ of " +
          '`run --shard i/N` workers) stands for all its workers',
      )
      .requiredOption('--out <dir>', 'where to write the merged results.json, junit.xml and summary.md')
      .option(
        '--force',
        'merge runs whose target, agent card or rig version differ (recorded in the result as mergeForced)',
      )
      .option(
        '--partial',
        'merge a shard set with workers missing or interrupted (the result is marked partial); refused otherwise',
      ),
  ).action((dirs: string[], flags: ThresholdFlags & { out: string; force?: boolean; partial?: boolean }) => {
    const extra = thresholdsFromFlags(flags);
    const { inputs, absent } = readMergeInputs(dirs);
    // Workers of a distributed run must be the whole set (or, asked for, a set marked partial).
    const set = checkShardSet(inputs, absent, { partial: flags.partial });
    if (flags.partial && !set)
      throw new UserError('--partial applies to the workers of a --shard run; these results are not one');
    // The sources' thresholds were judged on part of the data; judge the same expressions on the union.
    const expressions = new Set(inputs.flatMap(({ run }) => (run.thresholds ?? []).map((t) => t.expression)));
    for (const t of extra) expressions.delete(t.expression);
    const thresholds = [...[...expressions].map(parseThreshold), ...extra];
    const union = set
      ? mergeShardSet(inputs, set, { force: flags.force })
      : mergeRuns(inputs, mergedRunId(), { force: flags.force });
    // Results that say what their scenarios record let a misnamed threshold fail before anything is written.
    if (union.scenarios.every((s) => s.records))
      checkThresholdNames(thresholds, union.scenarios as DeclaringScenario[]);
    const merged = applyThresholds(union, thresholds);
    const files = writeResults(resolve(flags.out), merged);
    process.stdout.write(
      terminalSummary(merged, {
        files,
        color: summaryColor(process.stdout.isTTY),
        width: summaryWidth(process.stdout),
      }),
    );
    const what = set ? `${set.merged.length} of ${set.count} workers of run ${set.setRunId}` : `${inputs.length} runs`;
    process.stdout.write(`\nMerged ${what}.\n`);
    for (const line of brokenThresholdLines(merged)) process.stderr.write(`${line}\n`);
    process.exitCode = merged.verdict === 'failed' ? 1 : 0;
  });
}
