// `a2a-rig run`, `a2a-rig conform` and `a2a-rig list`: select scenarios, check the results
// directory, run them in one environment, write results/<run-id>/ and print the summary. Exit codes
// (rig/exitCodes.ts): 0 passed, 1 a check failed, 2 a usage or environment error, 3 nothing was
// tested (or a skip under --fail-on-skip), 4 an internal error, 130/143 interrupted by SIGINT/SIGTERM.
import { join } from 'node:path';
import { Command, Option } from 'commander';
import type { Generation } from './protocol/a2aTypes.ts';
import { UserError } from './protocol/userError.ts';
import { toxiproxyOption, type ToxiproxyChoice } from './proxy/backend.ts';
import type { ToxicSpec } from './proxy/faultControl.ts';
import { parseToxicArgument } from './proxy/toxicArgument.ts';
import { writeResults } from './report/writeResults.ts';
import { readBaseline } from './report/htmlReportCommand.ts';
import { ProgressOutput } from './report/progressOutput.ts';
import { summaryColor, summaryWidth, terminalSummary } from './report/terminalSummary.ts';
import { isFaultName, unknownFaultMessage } from './agent/faults.ts';
import { printableLine } from './report/terminalText.ts';
import type { RunResult } from './results/runResult.ts';
import { addThresholdOptions, thresholdsFromFlags, type ThresholdFlags } from './report/thresholdOptions.ts';
import { applyThresholds, brokenThresholdLines } from './report/thresholdEvaluation.ts';
import { checkThresholdNames } from './report/thresholdNames.ts';
import { NEED_LABELS, PROFILES, type ProfileName, type ScenarioNeeds } from './engine/defineScenario.ts';
import { displayPath, failureText, loadCatalog, type Catalog } from './engine/scenarioCatalog.ts';
import { runScenarios } from './engine/runScenarios.ts';
import { parseParamArgument, resolveParamOverrides, type ParamArgument } from './engine/paramOverrides.ts';
import { addMetricsPortOption, startLiveMetrics } from './engine/liveMetricsOption.ts';
import { EXIT } from './exitCodes.ts';
import { logInternalError } from './internalError.ts';
import { nothingTested } from './results/runResult.ts';
import { fanOut } from './results/runObserver.ts';
import { prepareOutDir } from './report/outDir.ts';
import { RunInterrupt, type RunSignal } from './engine/runInterrupt.ts';
import { newRunId } from './engine/runScenarios.ts';
import { containerRunOptions, DEFAULT_AGENT_IMAGE } from './engine/containerRunOptions.ts';
import { catchText } from './engine/faultCatches.ts';

interface RunFlags extends ThresholdFlags {
  profile: ProfileName;
  target?: string;
  toxiproxy: ToxiproxyChoice | 'none';
  restartCmd?: string;
  agentFault: string[];
  out?: string;
  a2aVersion: Generation | 'auto';
  toxic: ToxicSpec[];
  param: ParamArgument[];
  /** `run` only: directories of the user's own scenarios. */
  scenarios?: string[];
  metricsPort?: number;
  failOnSkip?: boolean;
  followCardEndpoint?: boolean;
  env?: 'containers';
  agentImage: string;
  baseline?: string;
}

function parseTarget(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`--target must be an http(s) URL of an A2A agent, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(`--target must be http(s), got "${value}"`);
  return value;
}

/** `--agent-fault NAME`, checked before anything starts: the embedded agent's fault flags only. */
function collectAgentFault(value: string, previous: string[]): string[] {
  if (!isFaultName(value)) throw new UserError(unknownFaultMessage('--agent-fault', value));
  return [...previous, value];
}

/**
 * The options of `run` and of `conform`. `conform` always names its agent (--target), so the
 * options that start or configure the embedded agent (--agent-fault, --env, --agent-image) are
 * `run`'s alone and not in conform's help.
 */
function addRunOptions(command: Command, verb: 'run' | 'conform'): Command {
  const targetRequired = verb === 'conform';
  const toxiproxy = toxiproxyOption();
  const parse = toxiproxy.parseArg!.bind(toxiproxy);
  const embedded = (c: Command): Command =>
    verb === 'conform'
      ? c
      : c
          .option(
            '--agent-fault <name>',
            'start the embedded agent with this fault flag (repeatable; a2a-rig agent --help lists them)',
            collectAgentFault,
            [] as string[],
          )
          .addOption(
            new Option(
              '--env <kind>',
              'containers: the reference agent and Toxiproxy in Docker containers (testcontainers), removed after the run',
            ).choices(['containers']),
          )
          .option('--agent-image <name>', 'the agent image for --env containers', DEFAULT_AGENT_IMAGE);
  const options = addMetricsPortOption(addThresholdOptions(command))
    .addOption(
      new Option(
        '--profile <name>',
        'sizes and budgets: smoke (every scenario in ~2.5 min: ~40 s, and ~105 s for the six dos ones), ci (~5 min), full',
      )
        .choices([...PROFILES])
        .default('smoke'),
    )
    .addOption(
      new Option(
        '--target <url>',
        targetRequired ? 'the agent to test' : 'an agent to test (default: the embedded reference agent)',
      )
        .argParser(parseTarget)
        .makeOptionMandatory(targetRequired),
    )
    .addOption(toxiproxy.argParser((v: string, p: unknown) => (v === 'none' ? 'none' : parse(v, p))))
    .option('--restart-cmd <cmd>', 'shell command that kills and restarts --target (crash scenarios)');
  return embedded(options)
    .option(
      '--out <dir>',
      "results directory (default results/<run-id>); checked before the run: new, empty, or an earlier run's results",
    )
    .option(
      '--follow-card-endpoint',
      "send the run's traffic to a JSON-RPC endpoint the agent card names at another host or port than --target (no faults can be injected there); without it the run stops before any traffic",
    )
    .option(
      '--baseline <dir>',
      'compare with this earlier run (its directory or results.json) in report.html, as a2a-rig compare would; checked before the run',
    )
    .option('--fail-on-skip', 'any skipped scenario fails the run (exit 3), not only a run that tested nothing')
    .addOption(
      new Option('--a2a-version <v>', 'wire generation to speak').choices(['auto', '0.3', '1.0']).default('auto'),
    )
    .option(
      '--toxic <type=value[,attr=value]>',
      "a toxic on the agent's proxy for the whole run, e.g. latency=50 (repeatable)",
      (v: string, prev: ToxicSpec[]) => [...prev, parseToxicArgument(v)],
      [] as ToxicSpec[],
    )
    .option(
      '--param <scenario.key=value>',
      'override a scenario parameter, e.g. capacity.sloP95Ms=500 (repeatable)',
      (v: string, prev: ParamArgument[]) => [...prev, parseParamArgument(v)],
      [] as ParamArgument[],
    );
}

/** The exit code of a finished (not interrupted) run, and the line that explains a 3. */
function exitOf(result: RunResult, failOnSkip: boolean): { code: number; line?: string } {
  if (result.verdict === 'failed') return { code: EXIT.failed };
  const untested = nothingTested(result.scenarios);
  if (result.verdict === 'skipped' && untested)
    return { code: EXIT.notTested, line: `a2a-rig: ${untested} — exit ${EXIT.notTested}` };
  const skipped = result.scenarios.filter((s) => s.verdict === 'skipped');
  if (failOnSkip && skipped.length > 0) {
    return {
      code: EXIT.notTested,
      line: `a2a-rig: ${skipped.length} scenario${skipped.length === 1 ? '' : 's'} skipped (${skipped.map((s) => s.name).join(', ')}) and --fail-on-skip was given — exit ${EXIT.notTested}`,
    };
  }
  return { code: EXIT.passed };
}

async function execute(selectors: string[], flags: RunFlags): Promise<void> {
  if (flags.target && flags.agentFault.length > 0)
    throw new UserError('--agent-fault applies to the embedded agent only, not to --target');
  const thresholds = thresholdsFromFlags(flags);
  const catalog = await loadCatalog(flags.scenarios ?? []);
  sayBroken(catalog, 'errored if selected', flags.scenarios);
  const scenarios = catalog.select(selectors);
  checkThresholdNames(thresholds, scenarios);
  const paramOverrides = resolveParamOverrides(scenarios, flags.profile, flags.param);
  const baseline = flags.baseline === undefined ? undefined : readBaseline(flags.baseline);
  // Before anything runs: a run that cannot write its results must not start.
  const runId = newRunId();
  const out = prepareOutDir(flags.out ?? join('results', runId));
  const progress = new ProgressOutput();
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
      sayInterrupted(signal, `; stopped before the results could be written to ${out.path}`);
      // The exit handlers of rig/engine/agentProcess.ts kill the agent and remove its temp files.
      process.exit(EXIT[signal]);
    },
  }).install();
  let live: Awaited<ReturnType<typeof startLiveMetrics>> | undefined;
  let code: number = EXIT.passed;
  let closeContainers: (() => Promise<void>) | undefined;
  try {
    live = await startLiveMetrics(flags.metricsPort, (line) => process.stderr.write(`${line}\n`));
    const containers = flags.env === 'containers' ? await containerRunOptions(flags) : undefined;
    closeContainers = containers?.onClose;
    const run = await runScenarios(scenarios, {
      runId,
      signal: interrupt.signal,
      profile: flags.profile,
      target: flags.target,
      toxiproxy: flags.toxiproxy,
      restartCmd: flags.restartCmd,
      agentFaults: flags.agentFault,
      generation: flags.a2aVersion,
      toxics: flags.toxic,
      followCardEndpoint: flags.followCardEndpoint === true,
      announce: (line) => process.stderr.write(`a2a-rig: ${printableLine(line)}\n`),
      paramOverrides,
      ...containers,
      // Who watches the run: the display always, the live metrics when --metrics-port was given.
      observer: fanOut([progress, live.observer]),
    }).finally(() => progress.stop());
    const evaluated = applyThresholds(run, thresholds);
    // Thresholds over a partial run are recorded, but the run's verdict stays `interrupted`.
    const result: RunResult = run.verdict === 'interrupted' ? { ...evaluated, verdict: 'interrupted' } : evaluated;
    const files = writeResults(out.path, result, { baseline });
    // Plain text for a terminal; summary.md (written above) is the Markdown for a CI step summary.
    process.stdout.write(
      terminalSummary(result, {
        files,
        color: summaryColor(process.stdout.isTTY),
        width: summaryWidth(process.stdout),
      }),
    );
    const signal = interrupt.signalName;
    if (signal) {
      sayInterrupted(signal, `; results so far in ${out.path}`);
      code = EXIT[signal];
    } else {
      for (const line of brokenThresholdLines(result)) process.stderr.write(`${line}\n`);
      const exit = exitOf(result, flags.failOnSkip === true);
      // The line may quote a skip reason, i.e. the agent (terminalText.ts).
      if (exit.line) process.stderr.write(`${printableLine(exit.line)}\n`);
      code = exit.code;
    }
    process.exitCode = code;
  } catch (err) {
    if (err instanceof UserError) {
      out.discardIfEmpty();
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

/** `--scenarios DIR`, repeatable: the user's own scenario files (scenarioCatalog.ts). */
function addScenariosOption(command: Command, what: string): Command {
  return command.option(
    '--scenarios <dir>',
    `a directory of your own scenarios (repeatable): *.ts, *.mts, *.js, *.mjs files that export default defineScenario({ ... }) imported from 'a2a-rig'; ${what}`,
    (v: string, prev: string[] = []) => [...prev, v],
  );
}

/** One line on stderr when scenario files failed to load: how many, where the first failed, and what becomes of them. */
function sayBroken(catalog: Catalog, fate: string, dirs: string[] = []): void {
  const broken = catalog.broken;
  if (broken.length === 0) return;
  const first = failureText(broken[0]!.failure!);
  const more =
    broken.length > 1
      ? `, and ${broken.length - 1} more (a2a-rig list${dirs.map((d) => ` --scenarios ${d}`).join('')} shows each)`
      : '';
  process.stderr.write(
    `a2a-rig: ${printableLine(`${broken.length} scenario file${broken.length === 1 ? '' : 's'} failed to load (${fate}): ${first}${more}`)}\n`,
  );
}

export function registerRunCommands(program: Command): void {
  addRunOptions(
    program
      .command('run')
      .description('run scenarios (names or tags; none = all) against the embedded agent or --target')
      .argument('[names...]', 'scenario names or tags (see a2a-rig list)'),
    'run',
  ).action((names: string[], flags: RunFlags) => execute(names, flags));

  addScenariosOption(
    program.commands.find((c) => c.name() === 'run')!,
    'a run with no names runs only these (the built-in ones stay selectable by name or tag)',
  );

  addRunOptions(
    program.command('conform').description('run the hitl-prompt/v1 conformance suite CF-1..CF-7 against an agent'),
    'conform',
  ).action((flags: RunFlags) =>
    execute(['conformance'], { ...flags, agentFault: [], agentImage: DEFAULT_AGENT_IMAGE }),
  );

  addScenariosOption(
    program
      .command('list')
      .description(
        'list the scenarios with their tags, needs and the agent fault flags they catch, and any scenario file that failed to load (exit 1 then)',
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
      process.stdout.write(
        `${s.name.padEnd(20)} ${s.description}\n${''.padEnd(20)} tags: ${s.tags.join(', ')} · needs: ${needs.length ? needs.join('; ') : 'nothing (any A2A agent)'}${from}\n${catches}`,
      );
    }
    sayBroken(catalog, 'listed as broken', flags.scenarios);
    if (catalog.broken.length > 0) process.exitCode = EXIT.failed;
  });
}
