// The options of `a2a-rig run` and `a2a-rig conform` (and `run`'s and `list`'s --scenarios), parsed
// and checked as they are read: what runCommand.ts's commands are given.
import type { ShardFlags } from './shardOptions.ts';
import type { WorkersFlags } from './workersOption.ts';
import { Command, Option } from 'commander';
import type { Generation } from './protocol/a2aTypes.ts';
import { normalizeBinding, type Binding } from './client/cardInterfaces.ts';
import { UserError } from './protocol/userError.ts';
import { toxiproxyOption, type ToxiproxyChoice } from './proxy/backend.ts';
import type { ToxicSpec } from './proxy/faultControl.ts';
import { parseToxicArgument } from './proxy/toxicArgument.ts';
import { addThresholdOptions, type ThresholdFlags } from './report/thresholds/thresholdOptions.ts';
import { isFaultName, unknownFaultMessage } from './agent/faults.ts';
import { PROFILES, type ProfileName } from './engine/kit/defineScenario.ts';
import { parseParamArgument, type ParamArgument } from './engine/paramOverrides.ts';
import { addMetricsPortOption } from './engine/liveMetricsOption.ts';
import { DEFAULT_AGENT_IMAGE } from './engine/containerRunOptions.ts';
import { addCredentialOptions, type CredentialFlags } from './credentialOptions.ts';

export interface RunFlags extends ThresholdFlags, ShardFlags, CredentialFlags, WorkersFlags {
  profile: ProfileName;
  target?: string;
  toxiproxy: ToxiproxyChoice | 'none';
  restartCmd?: string;
  agentFault: string[];
  out?: string;
  a2aVersion: Generation | 'auto';
  /** `--binding`: one binding, every one the card offers (`all`), or the card's preferred (undefined). */
  binding?: Binding | 'all';
  toxic: ToxicSpec[];
  param: ParamArgument[];
  /** `run` only: directories of the user's own scenarios. */
  scenarios?: string[];
  metricsPort?: number;
  failOnSkip?: boolean;
  allowInconclusive?: boolean;
  strict?: boolean;
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
function collectAgentFault(value: string, previous: string[]): string[] {
  if (!isFaultName(value)) throw new UserError(unknownFaultMessage('--agent-fault', value));
  return [...previous, value];
}

/**
 * The options of `run` and of `conform`. `conform` always names its agent (--target), so the
 * options that start or configure the embedded agent (--agent-fault, --env, --agent-image) are
 * `run`'s alone and not in conform's help.
 */
export function addRunOptions(command: Command, verb: 'run' | 'conform'): Command {
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
              'containers: the reference agent and Toxiproxy in Docker containers (testcontainers), ' +
                'removed after the run',
            ).choices(['containers']),
          )
          .option('--agent-image <name>', 'the agent image for --env containers', DEFAULT_AGENT_IMAGE);
  const options = addMetricsPortOption(addThresholdOptions(command))
    .addOption(
      new Option(
        '--profile <name>',
        'sizes and budgets: smoke (every scenario in ~2.5 min: ~40 s, and ~105 s for the six dos ones), ' +
          'ci (~5 min), full',
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
  return addCredentialOptions(embedded(options))
    .option(
      '--out <dir>',
      "results directory (default results/<run-id>); checked before the run: new, empty, or an earlier run's results",
    )
    .option(
      '--follow-card-endpoint',
      "send the run's traffic to a JSON-RPC endpoint the agent card names at another host or port than --target " +
        '(no faults can be injected there); without it the run stops before any traffic',
    )
    .option(
      '--baseline <dir>',
      'compare with this earlier run (its directory or results.json) in report.html, as a2a-rig compare would; ' +
        'checked before the run',
    )
    .option(
      '--strict',
      'a warning (a failed SHOULD or contract-example-shape check) fails its scenario and the run (exit 1)',
    )
    .option('--fail-on-skip', 'any skipped scenario fails the run (exit 3), not only a run that tested nothing')
    .option(
      '--allow-inconclusive',
      'exit 0, not 3, when a scenario or threshold could not be judged (its samples could not decide) and none failed',
    )
    .addOption(
      new Option('--a2a-version <v>', 'wire generation to speak').choices(['auto', '0.3', '1.0']).default('auto'),
    )
    .addOption(
      new Option(
        '--binding <name>',
        'the A2A binding to speak: jsonrpc, http+json, grpc, all (each the card offers, one run each), ' +
          "or auto (the card's preferred)",
      ).argParser(parseBinding),
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

/** `--scenarios DIR`, repeatable: the user's own scenario files (scenarioCatalog.ts). */
export function addScenariosOption(command: Command, what: string): Command {
  return command.option(
    '--scenarios <dir>',
    'a directory of your own scenarios (repeatable): *.ts, *.mts, *.js, *.mjs files that export default ' +
      `defineScenario({ ... }) imported from 'a2a-rig'; ${what}`,
    (v: string, prev: string[] = []) => [...prev, v],
  );
}
