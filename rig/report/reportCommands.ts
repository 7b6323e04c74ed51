// `a2a-rig compare` (the regression gate) and `a2a-rig merge` (several runs into one, exactly):
// verbs over results already written, so they need no agent and no network.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../protocol/userError.ts';
import { registerCompareCommand } from './compare/compareCommand.ts';
import { mergeRuns } from './merge/mergeRuns.ts';
import { mergeShardSet } from './merge/mergeShardSet.ts';
import { readMergeInputs } from './merge/shardInputs.ts';
import { checkShardSet } from '../results/shardSet.ts';
import { summaryColor, summaryWidth, terminalSummary } from './terminal/terminalSummary.ts';
import { applyThresholds, brokenThresholdLines } from './thresholds/thresholdEvaluation.ts';
import { parseThreshold } from './thresholds/thresholdExpression.ts';
import { checkThresholdNames, type DeclaringScenario } from './thresholds/thresholdNames.ts';
import { addThresholdOptions, thresholdsFromFlags, type ThresholdFlags } from './thresholds/thresholdOptions.ts';
import { writeResults } from './writeResults.ts';
import { EXIT } from '../exitCodes.ts';
import { notJudgedNote, type RunResult } from '../results/runResult.ts';

function mergedRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `merged-${stamp}-${randomBytes(2).toString('hex')}`;
}

export function registerReportCommands(program: Command): void {
  registerCompareCommand(program);

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
      )
      .option('--allow-inconclusive', 'exit 0, not 3, when a threshold was not judged and nothing failed'),
  ).action((dirs: string[], flags: MergeFlags) => {
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
    process.exitCode = mergeExit(merged, flags.allowInconclusive === true);
  });
}

type MergeFlags = ThresholdFlags & { out: string; force?: boolean; partial?: boolean; allowInconclusive?: boolean };

/** 1 when the merged run failed, 3 when a threshold could not be judged (unless allowed), else 0. */
function mergeExit(merged: RunResult, allowInconclusive: boolean): number {
  if (merged.verdict === 'failed') return EXIT.failed;
  if (merged.verdict !== 'inconclusive' || allowInconclusive) return EXIT.passed;
  process.stderr.write(`a2a-rig: ${notJudgedNote(merged)}\n`);
  return EXIT.notTested;
}
