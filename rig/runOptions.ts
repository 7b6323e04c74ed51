// The one room for a run's options (`a2a-rig run`, `a2a-rig conform`, and `list`'s --scenarios):
// one flat table of the flags with their help, defaults and validators, as autocannon keeps its
// options, and the one function that turns what commander parsed into a frozen RunOptions the
// engine and the writers read. A flag keeps its name all the way (`--agent-fault` is `agentFault`
// in the engine too). The validators that are a feature's own logic (the threshold grammar, a
// `--param`'s meaning, a toxic, a shard's identity) stay in their folders; this table calls them.
import { Option, type Command } from 'commander';
import type { Generation } from './protocol/a2aTypes.ts';
import { normalizeBinding, type Binding } from './client/cardInterfaces.ts';
import type { Credentials } from './client/credentials.ts';
import { UserError } from './protocol/userError.ts';
import { toxiproxyOption, type ToxiproxyChoice } from './proxy/backend.ts';
import type { ToxicSpec } from './proxy/faultControl.ts';
import { parseToxicArgument } from './proxy/toxicArgument.ts';
import { THRESHOLD_HELP, thresholdsFromFlags } from './report/thresholds/thresholdOptions.ts';
import type { Threshold } from './report/thresholds/thresholdExpression.ts';
import { checkThresholdNames } from './report/thresholds/thresholdNames.ts';
import { isFaultName, unknownFaultMessage } from './agent/faults.ts';
import { PROFILES, type ProfileName, type ScenarioDefinition } from './engine/kit/defineScenario.ts';
import { parseParamArgument, resolveParamOverrides, type ParamArgument } from './engine/paramOverrides.ts';
import { parsePort } from './engine/liveMetricsOption.ts';
import { DEFAULT_AGENT_IMAGE } from './engine/containerRunOptions.ts';
import type { RunOptions as EngineRunOptions } from './engine/runScenarios.ts';
import { accessFromFlags, parseActivate } from './credentialOptions.ts';
import { DEFAULT_BARRIER_TIMEOUT_S, shardedRun, type ShardedRun } from './shardOptions.ts';
import { defaultWorkers, MAX_WORKERS, parseWorkers } from './workersOption.ts';

type Verb = 'run' | 'conform';

/** What commander hands a verb's action: each flag of the table under its own name, as given. */
export interface RunFlags {
  threshold: string[];
  thresholdsFile?: string;
  metricsPort?: number;
  profile: ProfileName;
  target?: string;
  toxiproxy: ToxiproxyChoice | 'none';
  restartCmd?: string;
  agentFault: string[];
  env?: 'containers';
  agentImage: string;
  header: string[];
  headerFile?: string;
  caCert?: string;
  insecure?: boolean;
  activate: string[];
  out?: string;
  followCardEndpoint?: boolean;
  baseline?: string;
  strict?: boolean;
  failOnSkip?: boolean;
  allowInconclusive?: boolean;
  a2aVersion: Generation | 'auto';
  /** `--binding`: one binding, every one the card offers (`all`), or the card's preferred (undefined). */
  binding?: Binding | 'all';
  toxic: ToxicSpec[];
  param: ParamArgument[];
  shard?: string;
  runId?: string;
  startAt?: string;
  barrierTimeout?: string;
  workers?: number;
  /** `run` only: directories of the user's own scenarios. */
  scenarios?: string[];
}

/**
 * A run's options as the engine and the writers read them: the flags under their own names, each
 * validated once; the credential flags made one `access`, the thresholds and `--param`s parsed and
 * checked against the selected scenarios, `--workers` defaulted. Frozen: nothing changes them on the way.
 */
export type RunOptions = Readonly<
  Pick<
    EngineRunOptions,
    | 'profile'
    | 'target'
    | 'toxiproxy'
    | 'restartCmd'
    | 'agentFault'
    | 'a2aVersion'
    | 'binding'
    | 'toxic'
    | 'followCardEndpoint'
    | 'strict'
    | 'param'
  > & {
    workers: number;
    access: { credentials: Credentials; activate: readonly string[] };
    threshold: readonly Threshold[];
    metricsPort?: number;
    env?: 'containers';
    agentImage: string;
    out?: string;
    baseline?: string;
    failOnSkip?: boolean;
    allowInconclusive?: boolean;
  }
>;

/** One flag: its help (per verb where they differ), default, choices and the validator of its value. */
interface OptionRow {
  flags: string;
  help: string | ((verb: Verb) => string);
  /** `run` only: conform always names its agent, so the embedded agent's flags and --shard are not its. */
  runOnly?: true;
  default?: unknown;
  /** How --help shows the default when it is not the value itself. */
  defaultText?: string;
  choices?: readonly string[];
  /** Commander's argParser: the value, and the previous one for a repeatable flag. */
  parse?: (value: string, previous: never) => unknown;
  mandatoryFor?: Verb;
}

/** A repeatable flag: each value validated, in the order given. */
const each =
  <T>(parse: (value: string) => T) =>
  (value: string, previous: T[]): T[] => [...previous, parse(value)];

const toxiproxy = toxiproxyOption();
const parseToxiproxy = toxiproxy.parseArg!.bind(toxiproxy);

/** `--scenarios DIR`, repeatable: the user's own scenario files (scenarioCatalog.ts); `what` becomes of them. */
function scenariosHelp(what: string): string {
  return (
    'a directory of your own scenarios (repeatable): *.ts, *.mts, *.js, *.mjs files that export default ' +
    `defineScenario({ ... }) imported from 'a2a-rig'; ${what}`
  );
}

/** Every flag of run and conform, in the order --help lists them. */
const RUN_OPTIONS: readonly OptionRow[] = [
  { flags: '--threshold <expr>', help: THRESHOLD_HELP.threshold, default: [], parse: each(String) },
  { flags: '--thresholds-file <file>', help: THRESHOLD_HELP.thresholdsFile },
  {
    flags: '--metrics-port <port>',
    help: 'serve live Prometheus metrics on 127.0.0.1:PORT/metrics during the run',
    parse: parsePort,
  },
  {
    flags: '--profile <name>',
    help:
      'sizes and budgets: smoke (every scenario in ~2.5 min: ~40 s, and ~105 s for the six dos ones), ' +
      'ci (~5 min), full',
    choices: PROFILES,
    default: 'smoke',
  },
  {
    flags: '--target <url>',
    help: (verb) =>
      verb === 'conform' ? 'the agent to test' : 'an agent to test (default: the embedded reference agent)',
    parse: parseTarget,
    mandatoryFor: 'conform',
  },
  {
    flags: toxiproxy.flags,
    help: toxiproxy.description,
    default: toxiproxy.defaultValue,
    defaultText: toxiproxy.defaultValueDescription,
    parse: (v: string, p: never) => (v === 'none' ? 'none' : parseToxiproxy(v, p)),
  },
  { flags: '--restart-cmd <cmd>', help: 'shell command that kills and restarts --target (crash scenarios)' },
  {
    flags: '--agent-fault <name>',
    help: 'start the embedded agent with this fault flag (repeatable; a2a-rig agent --help lists them)',
    runOnly: true,
    default: [],
    parse: each(checkAgentFault),
  },
  {
    flags: '--env <kind>',
    help:
      'containers: the reference agent and Toxiproxy in Docker containers (testcontainers), ' + 'removed after the run',
    runOnly: true,
    choices: ['containers'],
  },
  {
    flags: '--agent-image <name>',
    help: 'the agent image for --env containers',
    runOnly: true,
    default: DEFAULT_AGENT_IMAGE,
  },
  {
    flags: '--header <"Name: value">',
    help:
      "a header sent on every request to the agent, e.g. 'Authorization: Bearer $TOKEN' " +
      '($NAME or ${NAME} is read from the environment; repeatable; values are redacted from all output)',
    default: [],
    parse: each(String),
  },
  {
    flags: '--header-file <file>',
    help: "headers from a file, one 'Name: value' a line ($NAME expanded, # comments)",
  },
  { flags: '--ca-cert <file>', help: "trust this PEM CA for the agent's TLS certificate (beside the system roots)" },
  { flags: '--insecure', help: "do not verify the agent's TLS certificate (said on stderr)" },
  {
    flags: '--activate <uri>',
    help: 'activate this extension on every request too, e.g. one the card declares required (repeatable)',
    default: [],
    parse: parseActivate,
  },
  {
    flags: '--out <dir>',
    help:
      'results directory (default results/<run-id>); checked before the run: ' +
      "new, empty, or an earlier run's results",
  },
  {
    flags: '--follow-card-endpoint',
    help:
      "send the run's traffic to a JSON-RPC endpoint the agent card names at another host or port than --target " +
      '(no faults can be injected there); without it the run stops before any traffic',
  },
  {
    flags: '--baseline <dir>',
    help:
      'compare with this earlier run (its directory or results.json) in report.html, as a2a-rig compare would; ' +
      'checked before the run',
  },
  {
    flags: '--strict',
    help: 'a warning (a failed SHOULD or contract-example-shape check) fails its scenario and the run (exit 1)',
  },
  {
    flags: '--fail-on-skip',
    help: 'any skipped scenario fails the run (exit 3), not only a run that tested nothing',
  },
  {
    flags: '--allow-inconclusive',
    help:
      'exit 0, not 3, when a scenario or threshold could not be judged ' +
      '(its samples could not decide) and none failed',
  },
  { flags: '--a2a-version <v>', help: 'wire generation to speak', choices: ['auto', '0.3', '1.0'], default: 'auto' },
  {
    flags: '--binding <name>',
    help:
      'the A2A binding to speak: jsonrpc, http+json, grpc, all (each the card offers, one run each), ' +
      "or auto (the card's preferred)",
    parse: parseBinding,
  },
  {
    flags: '--toxic <type=value[,attr=value]>',
    help: "a toxic on the agent's proxy for the whole run, e.g. latency=50 (repeatable)",
    default: [],
    parse: each(parseToxicArgument),
  },
  {
    flags: '--param <scenario.key=value>',
    help: 'override a scenario parameter, e.g. capacity.sloP95Ms=500 (repeatable)',
    default: [],
    parse: each(parseParamArgument),
  },
  {
    flags: '--shard <i/N|N>',
    help:
      'run as worker i of N (from 0) of a distributed run; with N alone the index comes from ' +
      'JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or A2A_RIG_TASK_SLOT (Swarm {{.Task.Slot}}, from 1)',
    runOnly: true,
  },
  {
    flags: '--run-id <id>',
    help: 'with --shard: the id every worker of the run shares (default: $A2A_RIG_RUN_ID)',
    runOnly: true,
  },
  {
    flags: '--start-at <time>',
    help: 'with --shard: start at this ISO 8601 time instead of meeting in the results directory',
    runOnly: true,
  },
  {
    flags: '--barrier-timeout <s>',
    help: 'with --shard: how long to wait for the other workers',
    runOnly: true,
    default: String(DEFAULT_BARRIER_TIMEOUT_S),
  },
  {
    flags: '--workers <n>',
    help:
      `worker threads for open-model loads, DoS attacks and floods (1..${MAX_WORKERS}; 1: no threads); ` +
      'default one per core, one fewer when the agent runs on this machine (no --target)',
    runOnly: true,
    parse: parseWorkers,
  },
  {
    flags: '--scenarios <dir>',
    help: scenariosHelp('a run with no names runs only these (the built-in ones stay selectable by name or tag)'),
    runOnly: true,
    parse: (v: string, prev: string[] = []) => [...prev, v],
  },
];

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

/** `--binding NAME`: one of A2A's bindings, `all`, or `auto` (undefined: the card's preferred). */
export function parseBinding(value: string): Binding | 'all' | undefined {
  const name = value.trim().toLowerCase();
  if (name === 'auto') return undefined;
  if (name === 'all') return 'all';
  const binding = normalizeBinding(value);
  if (binding === 'JSONRPC' || binding === 'HTTP+JSON' || binding === 'GRPC') return binding;
  throw new UserError(`--binding must be jsonrpc, http+json, grpc, all or auto, got "${value}"`);
}

/** `--agent-fault NAME`, checked before anything starts: the embedded agent's fault flags only. */
function checkAgentFault(value: string): string {
  if (!isFaultName(value)) throw new UserError(unknownFaultMessage('--agent-fault', value));
  return value;
}

function optionOf(row: OptionRow, verb: Verb): Option {
  const option = new Option(row.flags, typeof row.help === 'string' ? row.help : row.help(verb));
  if (row.parse) option.argParser(row.parse as (value: string, previous: unknown) => unknown);
  if (row.choices) option.choices(row.choices);
  if (row.default !== undefined) option.default(row.default, row.defaultText);
  if (row.mandatoryFor === verb) option.makeOptionMandatory();
  return option;
}

/** The table's flags of `verb`, added to its command in the table's order. */
export function addRunOptions(command: Command, verb: Verb): Command {
  for (const row of RUN_OPTIONS) if (verb === 'run' || !row.runOnly) command.addOption(optionOf(row, verb));
  return command;
}

/** `list --scenarios DIR`: the run's flag, saying what list does with the files. */
export function addScenariosOption(command: Command, what: string): Command {
  const row = RUN_OPTIONS.find((r) => r.flags.startsWith('--scenarios '))!;
  return command.addOption(optionOf({ ...row, help: scenariosHelp(what) }, 'run'));
}

/** The flags `verb` does not take, at their defaults (conform: no agent faults, the default image). */
function withDefaults(flags: RunFlags): RunFlags {
  const defaults: Record<string, unknown> = {};
  for (const row of RUN_OPTIONS) {
    const name = new Option(row.flags).attributeName();
    if (row.default !== undefined && (flags as unknown as Record<string, unknown>)[name] === undefined)
      defaults[name] = row.default;
  }
  return { ...defaults, ...flags } as RunFlags;
}

/** Freezes plain objects and arrays all the way down (a Buffer, such as a CA, cannot be frozen). */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value) || Object.isFrozen(value)) return value;
  if (Object.getPrototypeOf(value) !== Object.prototype && !Array.isArray(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

/** What a run is given: its options, the scenarios it runs, and (`--shard`) the worker's plan. */
export interface RunPlan {
  options: RunOptions;
  scenarios: ScenarioDefinition<object>[];
  sharded?: ShardedRun;
}

/**
 * Validates the flags of one run (one binding) and resolves them into its frozen options, in the
 * order a user meets the errors: flags alone first (a malformed header or an unset variable before
 * anything is read or sent), then `select` (the catalog), then what needs the selected scenarios.
 */
export async function readRunOptions(
  given: RunFlags,
  select: (dirs: string[]) => Promise<ScenarioDefinition<object>[]>,
): Promise<RunPlan> {
  const flags = withDefaults(given);
  if (flags.target && flags.agentFault.length > 0)
    throw new UserError('--agent-fault applies to the embedded agent only, not to --target');
  const access = accessFromFlags(flags);
  const threshold = thresholdsFromFlags(flags);
  const selected = await select(flags.scenarios ?? []);
  const sharded = shardedRun(flags, selected);
  const scenarios = sharded?.scenarios ?? selected;
  checkThresholdNames(threshold, scenarios);
  const param = resolveParamOverrides(scenarios, flags.profile, flags.param);
  // The flags that became `access`, `threshold`, `param` and a shard's plan are read through those.
  const {
    header: _header,
    headerFile: _headerFile,
    caCert: _caCert,
    insecure: _insecure,
    activate: _activate,
    thresholdsFile: _thresholdsFile,
    shard: _shard,
    runId: _runId,
    startAt: _startAt,
    barrierTimeout: _barrierTimeout,
    scenarios: _scenarios,
    ...rest
  } = flags;
  const options: RunOptions = {
    ...rest,
    binding: flags.binding === 'all' ? undefined : flags.binding,
    workers: flags.workers ?? defaultWorkers(flags.target === undefined),
    out: sharded?.out ?? flags.out,
    access,
    threshold,
    param,
  };
  return { options: deepFreeze(options), scenarios, ...(sharded ? { sharded } : {}) };
}
