// `a2a-rig run`, `a2a-rig conform` and `a2a-rig list`: select scenarios, check the results
// directory, run them in one environment, write results/<run-id>/ and print the summary. Exit codes
// (rig/exitCodes.ts): 0 passed, 1 a check failed, 2 a usage or environment error, 3 nothing was
// tested (or a skip under --fail-on-skip, or a scenario inconclusive without --allow-inconclusive),
// 4 an internal error, 130/143 interrupted by SIGINT/SIGTERM.
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { UserError } from './protocol/userError.ts';
import { writeResults } from './report/writeResults.ts';
import { readBaseline } from './report/html/htmlReportCommand.ts';
import { ProgressOutput } from './report/terminal/progressOutput.ts';
import { summaryColor, summaryWidth, terminalSummary } from './report/terminal/terminalSummary.ts';
import { printableLine } from './report/terminal/terminalText.ts';
import type { RunResult } from './results/runResult.ts';
import { applyThresholds, brokenThresholdLines } from './report/thresholds/thresholdEvaluation.ts';
import { NEED_LABELS, type ScenarioDefinition, type ScenarioNeeds } from './engine/kit/defineScenario.ts';
import { displayPath, failureText, loadCatalog, type Catalog } from './engine/scenarioCatalog.ts';
import { newRunId, runScenarios } from './engine/runScenarios.ts';
import { startLiveMetrics } from './engine/liveMetricsOption.ts';
import { EXIT } from './exitCodes.ts';
import { logInternalError } from './internalError.ts';
import { nothingTested, notJudgedNote } from './results/runResult.ts';
import { fanOut } from './results/runObserver.ts';
import { prepareOutDir } from './report/outDir.ts';
import { RunInterrupt, type RunSignal } from './engine/runInterrupt.ts';
import { containerRunOptions } from './engine/containerRunOptions.ts';
import { catchText } from './engine/kit/faultCatches.ts';
import { addRunOptions, addScenariosOption, readRunOptions, type RunFlags, type RunOptions } from './runOptions.ts';
import { redactedObserver } from './credentialOptions.ts';
import { redactCredentials, redactDeep } from './client/credentials.ts';
import { startedLine, type ShardedRun } from './shardOptions.ts';
import { runEachBinding } from './bindingRuns.ts';

/** The exit code of a finished (not interrupted) run, and the line that explains a 3. */
function exitOf(
  result: RunResult,
  flags: Pick<RunOptions, 'failOnSkip' | 'allowInconclusive'>,
): { code: number; line?: string } {
  if (result.verdict === 'failed') return { code: EXIT.failed };
  // Not judged is not passed: 3, unless the caller accepts it (and still sees it in the summary).
  if (result.verdict === 'inconclusive' && !flags.allowInconclusive)
    return { code: EXIT.notTested, line: `a2a-rig: ${notJudgedNote(result)}` };
  const untested = nothingTested(result.scenarios);
  if (result.verdict === 'skipped' && untested)
    return { code: EXIT.notTested, line: `a2a-rig: ${untested} — exit ${EXIT.notTested}` };
  const skipped = result.scenarios.filter((s) => s.verdict === 'skipped');
  if (flags.failOnSkip === true && skipped.length > 0) {
    const names = skipped.map((s) => s.name).join(', ');
    const which = `${skipped.length} scenario${skipped.length === 1 ? '' : 's'} skipped (${names})`;
    return { code: EXIT.notTested, line: `a2a-rig: ${which} and --fail-on-skip was given — exit ${EXIT.notTested}` };
  }
  return { code: EXIT.passed };
}

/** The catalog's scenarios the selectors name, said first when scenario files failed to load. */
async function selectScenarios(selectors: string[], dirs: string[]): Promise<ScenarioDefinition<object>[]> {
  const catalog = await loadCatalog(dirs);
  sayBroken(catalog, 'errored if selected', dirs);
  return catalog.select(selectors);
}

/** One run's interrupt: the display stops at the first signal, a second one exits at once. */
function installInterrupt(progress: ProgressOutput, outPath: string) {
  let saidInterrupted = false;
  const sayInterrupted = (signal: RunSignal, rest: string) => {
    if (saidInterrupted) return;
    saidInterrupted = true;
    process.stderr.write(`a2a-rig: interrupted by ${signal}${rest}\n`);
  };
  const interrupt = new RunInterrupt({
    onSignal: () => progress.stop(),
    onForce: (signal) => {
      progress.stop();
      sayInterrupted(signal, `; stopped before the results could be written to ${outPath}`);
      // The exit handlers of rig/engine/environment/agentProcess.ts kill the agent and remove its temp files.
      process.exit(EXIT[signal]);
    },
  }).install();
  return { interrupt, sayInterrupted };
}

/** A `--shard` worker's part of the engine's options: its share, its record, and its meeting, said once met. */
function shardWiring(sharded: ShardedRun | undefined, say: (line: string) => void) {
  if (!sharded) return {};
  return {
    share: sharded.identity,
    shard: {
      record: sharded.record,
      meet: async (signal: AbortSignal) => {
        const start = await sharded.meet(signal);
        say(startedLine(sharded, start));
        return start;
      },
    },
  };
}

/** The exit code of a run that was not interrupted, with the lines that explain it on stderr. */
function finishedExit(result: RunResult, options: RunOptions, sharded: ShardedRun | undefined, outPath: string) {
  for (const line of brokenThresholdLines(result)) process.stderr.write(`${line}\n`);
  const exit = exitOf(result, options);
  // The line may quote a skip reason, i.e. the agent (terminalText.ts).
  if (exit.line) process.stderr.write(`${printableLine(exit.line)}\n`);
  if (!sharded) return exit.code;
  // One worker's verdict judges a share: the run's is the merged set's. A worker that wrote
  // its results succeeded as a worker (an orchestrator must not stop its siblings for it).
  say(
    `worker ${sharded.identity.index} of ${sharded.identity.count}: ${result.verdict} on its share, ` +
      `results in ${outPath}; the run's verdict is the set's: a2a-rig merge ${dirname(outPath)}`,
  );
  return EXIT.passed;
}

/** Thresholds applied, secrets redacted, the files written and the summary printed: what the run ends with. */
function writeRun(run: RunResult, options: RunOptions, outPath: string, baseline: RunResult | undefined): RunResult {
  // Header values are secrets: whatever an agent echoed of them is gone before anything is written.
  const evaluated = redactDeep(applyThresholds(run, [...options.threshold]), options.access.credentials);
  // Thresholds over a partial run are recorded, but the run's verdict stays `interrupted`.
  const result: RunResult = run.verdict === 'interrupted' ? { ...evaluated, verdict: 'interrupted' } : evaluated;
  const files = writeResults(outPath, result, { baseline });
  // Plain text for a terminal; summary.md (written above) is the Markdown for a CI step summary.
  process.stdout.write(
    terminalSummary(result, {
      files,
      color: summaryColor(process.stdout.isTTY),
      width: summaryWidth(process.stdout),
    }),
  );
  return result;
}

const say = (line: string) => process.stderr.write(`a2a-rig: ${printableLine(line)}\n`);

async function execute(selectors: string[], flags: RunFlags): Promise<void> {
  const { options, scenarios, sharded } = await readRunOptions(flags, (dirs) => selectScenarios(selectors, dirs));
  const baseline = options.baseline === undefined ? undefined : readBaseline(options.baseline);
  // Before anything runs: a run that cannot write its results must not start.
  const runId = sharded?.runId ?? newRunId();
  const out = prepareOutDir(options.out ?? join('results', runId));
  const progress = new ProgressOutput();
  const { interrupt, sayInterrupted } = installInterrupt(progress, out.path);
  let live: Awaited<ReturnType<typeof startLiveMetrics>> | undefined;
  let code: number;
  let closeContainers: (() => Promise<void>) | undefined;
  try {
    live = await startLiveMetrics(options.metricsPort, (line) => process.stderr.write(`${line}\n`));
    const containers = options.env === 'containers' ? await containerRunOptions(options) : undefined;
    closeContainers = containers?.onClose;
    const run = await runScenarios(scenarios, {
      ...options,
      runId,
      signal: interrupt.signal,
      announce: say,
      ...shardWiring(sharded, say),
      ...containers,
      // Who watches the run: the display always, the live metrics when --metrics-port was given.
      observer: fanOut([redactedObserver(progress, options.access.credentials), live.observer]),
    }).finally(() => progress.stop());
    const result = writeRun(run, options, out.path, baseline);
    const signal = interrupt.signalName;
    if (signal) sayInterrupted(signal, `; results so far in ${out.path}`);
    code = signal ? EXIT[signal] : finishedExit(result, options, sharded, out.path);
    process.exitCode = code;
  } catch (err) {
    if (err instanceof UserError) {
      out.discardIfEmpty();
      // Redacted in place: its class says what it is (`--binding all` passes over a BindingNotOffered).
      err.message = redactCredentials(err.message, options.access.credentials);
      throw err;
    }
    throw logInternalError(err, out.path);
  } finally {
    await closeContainers?.();
    interrupt.uninstall();
    await live?.close();
  }
  // An interrupted scenario may still hold timers and sockets of the work it abandoned: leave now.
  if (interrupt.signalName) process.exit(code);
}

/** A run over the binding asked for, or (`--binding all`) over each the card offers. */
function executeOverBindings(selectors: string[], flags: RunFlags): Promise<void> {
  if (flags.binding !== 'all') return execute(selectors, flags);
  if (flags.shard !== undefined)
    throw new UserError('--binding all runs the agent once per binding; a --shard worker runs one: name it');
  return runEachBinding(flags, (each) => execute(selectors, each), say);
}

/**
 * One line on stderr when scenario files failed to load: how many, where the first failed, and
 * what becomes of them.
 */
function sayBroken(catalog: Catalog, fate: string, dirs: string[] = []): void {
  const broken = catalog.broken;
  if (broken.length === 0) return;
  const first = failureText(broken[0]!.failure!);
  const more =
    broken.length > 1
      ? `, and ${broken.length - 1} more (a2a-rig list${dirs.map((d) => ` --scenarios ${d}`).join('')} shows each)`
      : '';
  const files = `${broken.length} scenario file${broken.length === 1 ? '' : 's'}`;
  process.stderr.write(`a2a-rig: ${printableLine(`${files} failed to load (${fate}): ${first}${more}`)}\n`);
}

export function registerRunCommands(program: Command): void {
  addRunOptions(
    program
      .command('run')
      .description('run scenarios (names or tags; none = all) against the embedded agent or --target')
      .argument('[names...]', 'scenario names or tags (see a2a-rig list)'),
    'run',
  ).action((names: string[], flags: RunFlags) => executeOverBindings(names, flags));

  addRunOptions(
    program.command('conform').description('run the hitl-prompt/v1 conformance suite CF-1..CF-7 against an agent'),
    'conform',
  ).action((flags: RunFlags) => executeOverBindings(['conformance'], flags));

  addScenariosOption(
    program
      .command('list')
      .description(
        'list the scenarios with their tags, needs and the agent fault flags they catch, ' +
          'and any scenario file that failed to load (exit 1 then)',
      ),
    'listed after the built-in ones',
  ).action(async (flags: { scenarios?: string[] }) => {
    const catalog = await loadCatalog(flags.scenarios ?? []);
    for (const { scenario: s, file, dir, failure } of catalog.entries) {
      if (failure) {
        process.stdout.write(`${s.name.padEnd(20)} broken: ${printableLine(failureText(failure))}\n`);
        continue;
      }
      const needs = (Object.keys(NEED_LABELS) as Array<keyof ScenarioNeeds>)
        .filter((k) => s.needs[k])
        .map((k) => NEED_LABELS[k]);
      const from = dir ? ` · file: ${displayPath(file)}` : '';
      const catches = s.catches?.length ? `${''.padEnd(20)} catches: ${s.catches.map(catchText).join(', ')}\n` : '';
      const needed = needs.length ? needs.join('; ') : 'nothing (any A2A agent)';
      const tagsAndNeeds = `${''.padEnd(20)} tags: ${s.tags.join(', ')} · needs: ${needed}${from}`;
      process.stdout.write(`${s.name.padEnd(20)} ${s.description}\n${tagsAndNeeds}\n${catches}`);
    }
    sayBroken(catalog, 'listed as broken', flags.scenarios);
    if (catalog.broken.length > 0) process.exitCode = EXIT.failed;
  });
}
