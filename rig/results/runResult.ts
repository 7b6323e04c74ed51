// The shape of results.json, versioned. Everything a CI gate, a comparison or a merge needs:
// run metadata (including which fault backend and which agent produced it), each scenario's
// verdict, checks, latency summaries and the encoded HDR histograms behind them.
import type { LatencySummary } from '../metrics/latencyHistogram.ts';
import type { TimelineRecord } from '../metrics/latencyTimeline.ts';
import type { TrafficRecord } from '../metrics/trafficRecord.ts';
import type { RigHealth } from '../metrics/rigHealth.ts';

export type { OperationStats, TrafficPoint, TrafficRecord } from '../metrics/trafficRecord.ts';
import type { RecordedMeasures } from './metricNames.ts';
import type { ShardRecord, ShardSetRecord } from './shardRecord.ts';
import type { ThresholdResult } from './thresholdResult.ts';
import type { CheckResult } from './checkResult.ts';

export {
  checkFailed,
  checkNotJudged,
  checkWarned,
  judgeWarnings,
  runWarnings,
  verdictOfChecks,
  type CheckLevel,
  type CheckResult,
} from './checkResult.ts';

export const RESULTS_SCHEMA = 'a2a-rig/results@1';

/**
 * `interrupted`: the run was stopped by SIGINT/SIGTERM while this scenario ran (and a run so
 * stopped); `not-run`: the run was stopped before this scenario started; `inconclusive`: no check
 * failed but one could not be judged (its measurement straddles its bound), so the scenario neither
 * passed nor failed — a run with one exits 3, never 0.
 */
export type Verdict = 'passed' | 'failed' | 'skipped' | 'errored' | 'interrupted' | 'not-run' | 'inconclusive';

/** Every verdict, in the order reports list them. */
export const VERDICTS: readonly Verdict[] = [
  'passed',
  'failed',
  'errored',
  'interrupted',
  'inconclusive',
  'skipped',
  'not-run',
];

export interface MetricResult extends LatencySummary {
  /** hdr-histogram-js compressed base64 of the whole histogram (microseconds). */
  hdr: string;
}

export interface ScenarioResult {
  name: string;
  description: string;
  tags: string[];
  verdict: Verdict;
  /** Why it was skipped or errored, or the first failed check. */
  reason?: string;
  durationMs: number;
  params: Record<string, unknown>;
  checks: CheckResult[];
  /** How many checks warned (a failed SHOULD or example-shape check: checkResult.ts); absent when none. */
  warnings?: number;
  metrics: Record<string, MetricResult>;
  counters: Record<string, number>;
  /**
   * Latency over time: every latency metric in time buckets ({t: ms since the scenario started,
   * metric, count, mean, min, max in µs}), at most 120 buckets per metric (rig/metrics/latencyTimeline.ts).
   * Absent when the scenario recorded no latency.
   */
  timeline?: TimelineRecord;
  /** The faults the scenario injected or lifted, in order. Absent when it touched none. */
  faultEvents?: FaultEvent[];
  /**
   * What the scenario could not judge here and left out, one line each, with why (the DoS
   * scenarios: an attack not aimed, the agent's memory not sampled), so a part skipped never reads
   * as a part passed. Absent when nothing was left out.
   */
  notes?: string[];
  /**
   * Measures recorded but not to be judged, by name, with why: capacity's `capacity_per_s` when the
   * load generator, not the agent, was the limit. A threshold on one is not judged (exit 3).
   */
  notJudged?: Record<string, string>;
  /**
   * Curves the scenario measured, by name. A name says what is plotted against what, units
   * included: `<y>_vs_<x>`, e.g. `round_trip_p95_ms_vs_rate_per_s` (capacity: p95 at each offered
   * rate). Points are in the order measured. Absent when the scenario plotted nothing.
   */
  series?: Record<string, SeriesPoint[]>;
  /**
   * What the scenario declared it can record: its latency metrics and its counters with their
   * meaning (tally, throughput, limit-or-never; see rig/results/metricNames.ts). `compare` reads
   * the counters' direction from here. Absent in results written before it existed.
   */
  records?: RecordedMeasures;
  /**
   * Errored only: where the error was thrown, the stack's frames (`at fn (file:line:col)`), scenario
   * files first; absent for a skip or a failed check.
   */
  stack?: string;
  /**
   * What the scenario said as it ran (`ctx.log`, `ctx.note`), in order, `t` ms after it started.
   * At most LOG_LINES_KEPT lines: past that the first half and the last half are kept and
   * `logDropped` says how many between them were left out.
   */
  log?: LogLine[];
  logDropped?: number;
  /**
   * The scenario's own traffic to the agent through the rig's client (not attack traffic). Absent
   * when it sent nothing.
   */
  traffic?: TrafficRecord;
  /**
   * What the rig saw of itself while the scenario ran (rig/metrics/rigHealth.ts): its event-loop
   * delay, its CPU, the open model's schedule lag, the machine's run queue and steal (Linux), the
   * agent's CPU (when the rig started it), and a time series of windows. `rigSaturation(health)`
   * says whether the rig, not the agent, may have been the limit of the scenario's figures.
   * Absent for a skipped scenario and in results written before it existed.
   */
  health?: RigHealth;
}

export const LOG_LINES_KEPT = 1000;

export interface LogLine {
  t: number;
  line: string;
}

/**
 * One point of a scenario's curve: `x` and `y` are the plotted coordinates (units in the series
 * name); any other field is a labelled value that belongs to the point (for a tooltip or a table),
 * e.g. capacity's `p50_ms`, `p99_ms`, `achieved_per_s`, `errors`, `dropped`, `late`, `sustainable`.
 */
export interface SeriesPoint {
  x: number;
  y: number;
  [field: string]: number | string | boolean;
}

/** A toxic `--toxic` applied to the agent's proxy for every scenario of a run. */
export interface RunToxic {
  name: string;
  type: string;
  stream: string;
  toxicity: number;
  attributes: Record<string, number>;
}

/** A fault the scenario changed, `t` ms after it started (the report's toxics timeline). */
export interface FaultEvent {
  t: number;
  /**
   * add/remove: a toxic; disable/enable: the proxy (cuts connections / listens again); reset: every
   * toxic removed and the proxy enabled; restart: the agent killed and restarted; attack-start /
   * attack-stop: a DoS attack (rig/attack/) began, or its last request or connection settled.
   */
  action: 'add' | 'remove' | 'disable' | 'enable' | 'reset' | 'restart' | 'attack-start' | 'attack-stop';
  /**
   * The toxic's name for add/remove; the attack's name for attack-start/stop; otherwise what was
   * acted on ('proxy', 'agent').
   */
  target: string;
  /**
   * add: the toxic's type, stream, toxicity and attributes in one line; attack-start: its rate and
   * params; attack-stop: its outcomes.
   */
  detail?: string;
}

export type { ThresholdResult };

/** Where a merged result came from (`a2a-rig merge`). */
export interface MergeSource {
  runId: string;
  path: string;
  profile: string;
  verdict: Verdict;
  platform: string;
  /** What the source measured, so a forced merge still says which agent each part came from. */
  target?: RunResult['target'];
  rigVersion?: string;
}

export interface RunResult {
  schema: typeof RESULTS_SCHEMA;
  runId: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  profile: string;
  rig: {
    version: string;
    node: string;
    platform: string;
    cpus: number;
    /** The 1-minute load average per core as the run started (a merge: the highest of its sources). */
    loadPerCore?: number;
    /**
     * The worst of the scenarios' `health` (a merge: of its sources'), without the time series:
     * the run's figure for "was the load generator saturated" (rigSaturation).
     */
    health?: RigHealth;
  };
  target: {
    kind: 'embedded' | 'url';
    url: string;
    agentName?: string;
    agentVersion?: string;
    generation?: string;
    /** The A2A binding the rig spoke (JSONRPC, HTTP+JSON, GRPC); absent in runs before bindings. */
    binding?: string;
    hitlDeclared?: boolean;
    agentFaults: string[];
    /** The agent card's digest, its URLs left out (rig/results/runIdentity.ts): merge refuses cards that differ. */
    cardDigest?: string;
    /** The endpoint the rig called, of its binding (the card's, never the proxy's). */
    rpcUrl?: string;
    /**
     * Present when that endpoint is not the URL the user gave: where the traffic went, as said on
     * stderr before it went (rig/engine/environment/cardEndpoint.ts).
     */
    endpointNote?: string;
  };
  /** The fault backend: kind, version, API, this run's proxy on it, where it ran, why `auto` passed over the others. */
  proxy: {
    backend: string;
    version?: string;
    api?: string;
    proxyName?: string;
    detail?: string;
    passedOver?: string[];
  } | null;
  verdict: Verdict;
  scenarios: ScenarioResult[];
  /** The scenarios' warnings added up; absent when none. */
  warnings?: number;
  /** Present when the run was `--strict`: a warning failed its scenario. */
  strict?: true;
  /** Present when thresholds were given; a broken one makes the run's verdict `failed`. */
  thresholds?: ThresholdResult[];
  /** Present on a merged result: the runs it adds up. */
  mergedFrom?: MergeSource[];
  /** Present when `merge --force` added up runs of different targets, cards or rig versions: what differed. */
  mergeForced?: { differences: string[] };
  /** Present when `--toxic` was given: toxics on the agent's proxy during every scenario. */
  toxics?: RunToxic[];
  /** Present when a signal stopped the run (verdict `interrupted`): which one. */
  interruptedBy?: string;
  /** Present on a worker of a distributed run (`--shard`): which one, and how it started. */
  shard?: ShardRecord;
  /** Present on a merged shard set: its workers, their start and skew, and what was missing. */
  shards?: ShardSetRecord;
}

/**
 * The run's verdict: interrupted if it was stopped (a scenario interrupted or not run); else
 * failed if any scenario failed or errored; else inconclusive if any was; else skipped when
 * nothing was tested (see nothingTested); else passed.
 */
export function overallVerdict(scenarios: ScenarioResult[]): Verdict {
  if (scenarios.some((s) => s.verdict === 'interrupted' || s.verdict === 'not-run')) return 'interrupted';
  if (scenarios.some((s) => s.verdict === 'failed' || s.verdict === 'errored')) return 'failed';
  if (scenarios.some((s) => s.verdict === 'inconclusive')) return 'inconclusive';
  if (nothingTested(scenarios)) return 'skipped';
  return 'passed';
}

/**
 * The sentence under an inconclusive run's title, or undefined: which scenarios could not be
 * judged, and that this is not a pass (`run` exits 3 unless --allow-inconclusive).
 */
export function notJudgedNote(run: RunResult): string | undefined {
  if (run.verdict !== 'inconclusive') return undefined;
  const names = run.scenarios.filter((s) => s.verdict === 'inconclusive').map((s) => s.name);
  const thresholds = (run.thresholds ?? []).filter((t) => t.notJudged).length;
  const which = [
    ...(names.length ? [`${names.length} scenario${names.length === 1 ? '' : 's'} (${names.join(', ')})`] : []),
    ...(thresholds ? [`${thresholds} threshold${thresholds === 1 ? '' : 's'}`] : []),
  ].join(' and ');
  return (
    `Nothing failed, but ${which} could not be judged either way. Not judged is not passed: ` +
    'run, conform and merge exit with code 3 (0 with --allow-inconclusive).'
  );
}

/**
 * Why a run tested nothing it was asked to, or undefined when it tested something. The rig tests
 * hitl-prompt/v1: a run tested nothing when every selected scenario that exercises the extension
 * (tag `hitl`; for `conform` that is CF-1..CF-7 and activation) was skipped, or, when none was
 * selected, every selected scenario was skipped. A passing agent-card check beside skipped
 * conformance scenarios is not a conformance pass: CI must not read it as one (exit code 3).
 */
export function nothingTested(scenarios: ScenarioResult[]): string | undefined {
  if (scenarios.length === 0) return undefined;
  const hitl = scenarios.filter((s) => s.tags.includes('hitl'));
  const subject = hitl.length > 0 ? hitl : scenarios;
  if (!subject.every((s) => s.verdict === 'skipped')) return undefined;
  const reasons = [...new Set(subject.map((s) => s.reason).filter((r): r is string => !!r))];
  const what =
    hitl.length > 0
      ? `all ${hitl.length} scenarios that test hitl-prompt/v1 were skipped`
      : `all ${scenarios.length} scenarios were skipped`;
  return `nothing was tested: ${what}${reasons.length === 1 ? ` (${reasons[0]})` : ''}`;
}
