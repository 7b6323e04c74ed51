// `a2a-rig run`, `a2a-rig conform` and `a2a-rig list`: select scenarios, run them in one
// environment, write results/<run-id>/ and print the summary. Exit 0 when all passed (or were
// skipped), 1 when a check failed, 2 on a usage or environment error.
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { Generation } from '../protocol/a2aTypes.ts';
import { UserError } from '../protocol/userError.ts';
import { toxiproxyOption, type ToxiproxyChoice } from '../proxy/backend.ts';
import type { ToxicSpec } from '../proxy/faultControl.ts';
import { parseToxicArgument } from '../proxy/toxicArgument.ts';
import { writeResults } from '../report/writeResults.ts';
import { ProgressOutput } from '../report/progressOutput.ts';
import { summaryMarkdown } from '../report/summaryMarkdown.ts';
import type { RunResult } from '../report/runResult.ts';
import { addThresholdOptions, thresholdsFromFlags, type ThresholdFlags } from '../report/thresholdOptions.ts';
import { applyThresholds, brokenThresholdLines } from '../report/thresholdEvaluation.ts';
import { checkThresholdNames } from '../report/thresholdNames.ts';
import { NEED_LABELS, PROFILES, type ProfileName, type ScenarioNeeds } from './defineScenario.ts';
import { loadScenarios, selectScenarios } from './scenarioCatalog.ts';
import { runScenarios } from './runScenarios.ts';
import { parseParamArgument, resolveParamOverrides, type ParamArgument } from './paramOverrides.ts';
import { addMetricsPortOption, startLiveMetrics } from './liveMetricsOption.ts';

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
  metricsPort?: number;
}

function parseTarget(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UserError(`--target must be an http(s) URL of an A2A agent, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UserError(`--target must be http(s), got "${value}"`);
  return value;
}

function addRunOptions(command: Command, targetRequired = false): Command {
  const toxiproxy = toxiproxyOption();
  const parse = toxiproxy.parseArg!.bind(toxiproxy);
  return addMetricsPortOption(addThresholdOptions(command))
    .addOption(new Option('--profile <name>', 'sizes and budgets: smoke (~1 min), ci (~5 min), full').choices([...PROFILES]).default('smoke'))
    .addOption(
      new Option('--target <url>', targetRequired ? 'the agent to test' : 'an agent to test (default: the embedded reference agent)')
        .argParser(parseTarget)
        .makeOptionMandatory(targetRequired),
    )
    .addOption(toxiproxy.argParser((v: string, p: unknown) => (v === 'none' ? 'none' : parse(v, p))))
    .option('--restart-cmd <cmd>', 'shell command that kills and restarts --target (crash scenarios)')
    .option('--agent-fault <name>', 'start the embedded agent with this fault flag (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--out <dir>', 'results directory (default results/<run-id>)')
    .addOption(new Option('--a2a-version <v>', 'wire generation to speak').choices(['auto', '0.3', '1.0']).default('auto'))
    .option('--toxic <type=value[,attr=value]>', 'a toxic on the agent\'s proxy for the whole run, e.g. latency=50 (repeatable)', (v: string, prev: ToxicSpec[]) => [...prev, parseToxicArgument(v)], [] as ToxicSpec[])
    .option('--param <scenario.key=value>', 'override a scenario parameter, e.g. capacity.sloP95Ms=500 (repeatable)', (v: string, prev: ParamArgument[]) => [...prev, parseParamArgument(v)], [] as ParamArgument[]);
}

async function execute(selectors: string[], flags: RunFlags): Promise<void> {
  if (flags.target && flags.agentFault.length > 0) throw new UserError('--agent-fault applies to the embedded agent only, not to --target');
  const thresholds = thresholdsFromFlags(flags);
  const all = await loadScenarios();
  const scenarios = selectScenarios(all, selectors);
  checkThresholdNames(thresholds, scenarios);
  const paramOverrides = resolveParamOverrides(scenarios, flags.profile, flags.param);
  const progress = new ProgressOutput();
  const live = await startLiveMetrics(flags.metricsPort, (line) => process.stderr.write(`${line}\n`));
  try {
    const result: RunResult = applyThresholds(await runScenarios(scenarios, {
      profile: flags.profile,
      target: flags.target,
      toxiproxy: flags.toxiproxy,
      restartCmd: flags.restartCmd,
      agentFaults: flags.agentFault,
      generation: flags.a2aVersion,
      toxics: flags.toxic,
      paramOverrides,
      liveMetrics: live.metrics,
      onProgress: (event) => {
        progress.onProgress(event);
        live.onProgress(event);
      },
    }).finally(() => progress.stop()), thresholds);
    const dir = resolve(flags.out ?? join('results', result.runId));
    const files = writeResults(dir, result);
    process.stdout.write(summaryMarkdown(result));
    process.stdout.write(`\nResults: ${files.join(', ')}\n`);
    for (const line of brokenThresholdLines(result)) process.stderr.write(`${line}\n`);
    process.exitCode = result.verdict === 'failed' ? 1 : 0;
  } finally {
    await live.close();
  }
}

export function registerRunCommands(program: Command): void {
  addRunOptions(
    program
      .command('run')
      .description('run scenarios (names or tags; none = all) against the embedded agent or --target')
      .argument('[names...]', 'scenario names or tags (see a2a-rig list)'),
  ).action((names: string[], flags: RunFlags) => execute(names, flags));

  addRunOptions(
    program
      .command('conform')
      .description('run the hitl-prompt/v1 conformance suite CF-1..CF-7 against an agent'),
    true,
  ).action((flags: RunFlags) => execute(['conformance'], flags));

  program
    .command('list')
    .description('list the scenarios with their tags and needs')
    .action(async () => {
      for (const s of await loadScenarios()) {
        const needs = (Object.keys(NEED_LABELS) as Array<keyof ScenarioNeeds>).filter((k) => s.needs[k]).map((k) => NEED_LABELS[k]);
        process.stdout.write(`${s.name.padEnd(20)} ${s.description}\n${''.padEnd(20)} tags: ${s.tags.join(', ')} · needs: ${needs.length ? needs.join('; ') : 'nothing (any A2A agent)'}\n`);
      }
    });
}
