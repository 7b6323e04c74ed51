// Runs scenarios in one environment, one after another: checks what each needs, gives it a fresh
// context and a hard time budget, turns its checks into a verdict, and cleans up faults between
// scenarios so one scenario's toxics never leak into the next.
import { unmetNeeds } from './unmetNeeds.ts';
import type { ShardRecord, ShardStart } from '../results/shardRecord.ts';
import { setMaxListeners } from 'node:events';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import type { ProfileName, ScenarioDefinition } from './kit/defineScenario.ts';
import { RefusalWatch } from './refusedEntry.ts';
import { Environment, type EnvironmentOptions } from './environment/environment.ts';
import { EngineScenarioContext, ScenarioSkipped } from './scenarioContext.ts';
import type { ScenarioHooks } from './scenarioRecording.ts';
import {
  RESULTS_SCHEMA,
  checkFailed,
  judgeWarnings,
  overallVerdict,
  runWarnings,
  verdictOfChecks,
  type MetricResult,
  type RunResult,
  type ScenarioResult,
  type Verdict,
} from '../results/runResult.ts';
import type { RunObserver, ScenarioPosition } from '../results/runObserver.ts';
import { RIG_VERSION } from './rigVersion.ts';
import { cardDigest } from '../results/runIdentity.ts';
import type { RigHealth } from '../metrics/rigHealth.ts';
import { errorStack } from './errorStack.ts';
import { isReachFailure } from '../client/index.ts';
import { runHealth, watchScenario } from './scenarioHealth.ts';
import { notRun, recordedCounters } from './scenarioOutcomes.ts';

export interface RunOptions extends EnvironmentOptions {
  profile: ProfileName;
  /** Parameter overrides per scenario name (`--param`, resolved by paramOverrides.ts). */
  param?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** `--strict`: a warning (a failed SHOULD or example-shape check) fails its scenario (judgeWarnings). */
  strict?: boolean;
  /** The run's id (and so its default results directory), chosen before the run; new when absent. */
  runId?: string;
  /**
   * Aborted by SIGINT/SIGTERM (runInterrupt.ts), its reason the signal's name: the running
   * scenario is aborted and recorded `interrupted`, the rest `not-run`, and the environment closed.
   */
  signal?: AbortSignal;
  /**
   * A distributed run's worker (`--shard`): what it records of itself, and the wait for the other
   * workers (startBarrier.ts), once its environment is up and before its first scenario.
   */
  shard?: { record: Omit<ShardRecord, keyof ShardStart>; meet: (signal: AbortSignal) => Promise<ShardStart> };
}

/** A signal that never aborts, for a run without one. */
const NEVER = new AbortController().signal;

/** How often a running scenario's traffic is reported live. */
export const LIVE_TRAFFIC_MS = 1_000;

/** A scenario's budget ran out: the stack would only show the engine's timer. */
class BudgetOverrun extends Error {}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

/** How a scenario's run ended, before the signal's say (interrupted) is applied. */
interface Outcome {
  verdict: Verdict;
  reason?: string;
  stack?: string;
}

/** What the run's observer hears of a scenario while it runs (its log lines; the traffic when it listens). */
function watchedHooks(
  watched: { position: ScenarioPosition; observer: RunObserver } | undefined,
  ended: () => boolean,
): ScenarioHooks {
  if (!watched) return {};
  return {
    liveTraffic: watched.observer.onTraffic !== undefined,
    // A line logged after the scenario ended (a stray promise of it) is kept in its results but not shown live.
    onLog: (l) => {
      if (!ended()) watched.observer.onLog?.({ ...watched.position, t: l.t, line: l.line });
    },
  };
}

/**
 * The scenario's two ends besides its own: its budget running out and the run's signal. Either
 * aborts the scenario's signal and rejects; `checksBeforeSignal` is how many checks were made when
 * a signal interrupted it (undefined: none did): later checks judge the abort, not the agent.
 */
class ScenarioEnds {
  private timer: NodeJS.Timeout | undefined;
  private onInterrupt: (() => void) | undefined;
  checksBeforeSignal: number | undefined;

  constructor(
    private readonly controller: AbortController,
    private readonly budgetMs: number,
    private readonly runSignal: AbortSignal | undefined,
  ) {}

  /** Rejects when the budget runs out or the run is interrupted, whichever comes first. */
  race(checksMade: () => number): [Promise<never>, Promise<never>] {
    const budgetMs = this.budgetMs;
    const overrun = new Promise<never>((_, reject) => {
      this.timer = setTimeout(() => {
        this.controller.abort();
        reject(new BudgetOverrun(`exceeded its ${budgetMs} ms budget`));
      }, budgetMs);
    });
    // A signal ends the scenario now, whatever it awaits: its own code sees the aborted ctx.signal.
    const interrupted = new Promise<never>((_, reject) => {
      this.onInterrupt = () => {
        this.checksBeforeSignal = checksMade();
        this.controller.abort();
        reject(new Error('interrupted'));
      };
      if (this.runSignal?.aborted) this.onInterrupt();
      else this.runSignal?.addEventListener('abort', this.onInterrupt, { once: true });
    });
    return [overrun, interrupted];
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.onInterrupt) this.runSignal?.removeEventListener('abort', this.onInterrupt);
  }
}

/** The verdict of a scenario that threw: skipped, unreachable agent, a failed check before, or errored. */
function outcomeOfError(err: unknown, ctx: EngineScenarioContext): Outcome {
  if (err instanceof ScenarioSkipped) return { verdict: 'skipped', reason: err.message };
  const verdict = ctx.checks.some(checkFailed) ? 'failed' : 'errored';
  // Nothing the agent did: the rig never got a connection to it (a check failed before stands).
  if (isReachFailure(err)) return { verdict, reason: `the rig could not reach the agent: ${err.message}` };
  const reason = (err as Error).message;
  // Where the scenario broke; not for an overrun (the engine's timer threw it) or a failed check.
  if (verdict === 'errored' && !(err instanceof BudgetOverrun)) return { verdict, reason, stack: errorStack(err) };
  return { verdict, reason };
}

/** Runs the scenario's body against its ends, and judges its checks. */
async function judgedRun(
  scenario: ScenarioDefinition<object>,
  env: Environment,
  ctx: EngineScenarioContext,
  params: Record<string, unknown>,
  ends: ScenarioEnds,
): Promise<Outcome> {
  try {
    const unmet = unmetNeeds(scenario, env, ctx);
    if (unmet) throw new ScenarioSkipped(unmet);
    await env.applyRunToxics();
    const [overrun, interrupted] = ends.race(() => ctx.checks.length);
    await Promise.race([scenario.run(ctx, params), overrun, interrupted]);
    return verdictOfChecks(ctx.checks);
  } catch (err) {
    return outcomeOfError(err, ctx);
  }
}

async function runOne(
  scenario: ScenarioDefinition<object>,
  env: Environment,
  profile: ProfileName,
  prior: Map<string, Verdict>,
  overrides: Readonly<Record<string, unknown>> = {},
  runSignal?: AbortSignal,
  watched?: { position: ScenarioPosition; observer: RunObserver },
): Promise<ScenarioResult> {
  const started = performance.now();
  const budgetMs = scenario.budgetMs[profile];
  const controller = new AbortController();
  // Every request of the scenario watches its signal (a flood: a thousand at once); not a leak.
  setMaxListeners(0, controller.signal);
  let ended = false;
  const hooks = watchedHooks(watched, () => ended);
  const watch = await watchScenario(budgetMs, () => env.embeddedPid);
  Object.assign(hooks, { onLoadEnd: watch.onLoadEnd, rigSpan: watch.span } satisfies ScenarioHooks);
  const ctx = new EngineScenarioContext(
    env,
    profile,
    controller.signal,
    started + budgetMs,
    prior,
    scenario.records,
    hooks,
    scenario.shardable ? env.options.share : undefined,
  );
  // Once a second, the last second's traffic (nothing when the scenario sent nothing in it); unref'd, cleared below.
  const ticker = watched?.observer.onTraffic
    ? setInterval(() => {
        const live = ctx.traffic.liveSecond();
        if (live) watched.observer.onTraffic?.({ ...watched.position, live });
      }, LIVE_TRAFFIC_MS).unref()
    : undefined;
  const params = { ...(scenario.params[profile] as Record<string, unknown>), ...overrides };
  const ends = new ScenarioEnds(controller, budgetMs, runSignal);
  let outcome: Outcome;
  let health: RigHealth | undefined;
  try {
    outcome = await judgedRun(scenario, env, ctx, params, ends);
  } finally {
    health = await watch.stop();
    ends.dispose();
    clearInterval(ticker);
    controller.abort();
    await ctx.close();
    ended = true;
    // Interrupted: the environment is closed next, which deletes the proxy and its toxics.
    if (!runSignal?.aborted) await env.faults?.reset().catch(() => {});
  }
  // Whatever the scenario's own end said (an aborted request errors), a signal is why it ended —
  // if it came while the scenario ran, not while it was being cleaned up after it finished.
  const checksBeforeSignal = ends.checksBeforeSignal;
  if (checksBeforeSignal !== undefined)
    outcome = { verdict: 'interrupted', reason: `interrupted by ${String(runSignal?.reason)}` };
  const checks = checksBeforeSignal === undefined ? ctx.checks : ctx.checks.slice(0, checksBeforeSignal);
  return scenarioResult(scenario, ctx, {
    ...outcome,
    durationMs: Math.round(performance.now() - started),
    params,
    checks,
    health,
  });
}

/** A scenario's result from what its context recorded and how it ended. */
function scenarioResult(
  scenario: ScenarioDefinition<object>,
  ctx: EngineScenarioContext,
  run: Outcome & Pick<ScenarioResult, 'durationMs' | 'params' | 'checks'> & { health: RigHealth | undefined },
): ScenarioResult {
  const { verdict, reason, stack, health } = run;
  const metrics: Record<string, MetricResult> = {};
  for (const [name, histogram] of ctx.metrics) metrics[name] = { ...histogram.summary(), hdr: histogram.encode() };
  const timeline = ctx.timeline.toRecord();
  const traffic = ctx.traffic.toRecord();
  const log = ctx.logs;
  return {
    name: scenario.name,
    description: scenario.description,
    tags: scenario.tags,
    verdict,
    ...(reason ? { reason } : {}),
    durationMs: run.durationMs,
    params: run.params,
    checks: run.checks,
    metrics,
    counters: recordedCounters(scenario, verdict, ctx.counters),
    records: scenario.records,
    ...(timeline ? { timeline } : {}),
    ...(ctx.faultEvents.length > 0 ? { faultEvents: ctx.faultEvents } : {}),
    ...ctx.leftOut(),
    ...(ctx.series.size > 0 ? { series: Object.fromEntries(ctx.series) } : {}),
    ...(stack ? { stack } : {}),
    ...(log.lines.length > 0 ? { log: log.lines } : {}),
    ...(log.dropped > 0 ? { logDropped: log.dropped } : {}),
    ...(traffic ? { traffic } : {}),
    ...(health && verdict !== 'skipped' ? { health } : {}),
  };
}

/** Each scenario in turn, told to the observer; after a signal, the rest are recorded `not-run`. */
async function runEach(
  scenarios: ScenarioDefinition<object>[],
  env: Environment,
  options: RunOptions,
  refusals: RefusalWatch,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const prior = new Map<string, Verdict>();
  const { signal, observer } = options;
  for (const [index, scenario] of scenarios.entries()) {
    if (signal?.aborted) {
      results.push(notRun(scenario, signal));
      continue;
    }
    const position = { scenario: scenario.name, index, total: scenarios.length };
    observer?.onScenarioStart?.(position);
    const watched = observer ? { position, observer } : undefined;
    const result = refusals.judge(
      judgeWarnings(
        await runOne(scenario, env, options.profile, prior, options.param?.[scenario.name], signal, watched),
        options.strict === true,
      ),
    );
    prior.set(scenario.name, result.verdict);
    results.push(result);
    observer?.onScenarioEnd?.({ ...position, result });
  }
  return results;
}

/** results.json's `target`: the agent the run met, as the environment found it. */
function targetRecord(env: Environment, options: RunOptions): RunResult['target'] {
  return {
    kind: env.kind,
    url: env.directUrl,
    agentName: env.agent.name,
    agentVersion: typeof env.agent.card.version === 'string' ? env.agent.card.version : undefined,
    generation: env.agent.generation,
    binding: env.agent.binding,
    hitlDeclared: env.agent.hitl.declared,
    agentFaults: [...options.agentFault],
    cardDigest: cardDigest(env.agent.card),
    rpcUrl: env.directRpcUrl,
    ...(env.endpointNote ? { endpointNote: env.endpointNote } : {}),
  };
}

/** results.json's `proxy`: the fault backend the run's proxy was on, or null without one. */
function proxyRecord(env: Environment): RunResult['proxy'] {
  const proxy = env.proxyRecord;
  return proxy
    ? {
        backend: proxy.kind,
        version: proxy.version,
        api: proxy.url,
        proxyName: env.proxyName,
        detail: proxy.detail,
        passedOver: [...proxy.passedOver],
      }
    : null;
}

/** Runs `scenarios` (already selected and ordered) and returns the run's result. */
export async function runScenarios(scenarios: ScenarioDefinition<object>[], options: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  // What else loaded the machine before this run began: compare trusts no latency measured on an overloaded machine.
  const loadPerCore = Number((loadavg()[0]! / cpus().length).toFixed(2));
  const started = performance.now();
  const runId = options.runId ?? newRunId(startedAt);
  const refusals = new RefusalWatch();
  const env = await Environment.open({ ...options, runId, access: { ...options.access, onRefused: refusals.hear } });
  const { signal } = options;
  let shard: ShardRecord | undefined;
  let results: ScenarioResult[];
  try {
    if (options.shard) shard = { ...options.shard.record, ...(await options.shard.meet(signal ?? NEVER)) };
    results = await runEach(scenarios, env, options, refusals);
  } finally {
    await env.close();
  }
  return {
    schema: RESULTS_SCHEMA,
    runId,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    profile: options.profile,
    rig: {
      version: RIG_VERSION,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      loadPerCore,
      ...runHealth(results),
    },
    target: targetRecord(env, options),
    proxy: proxyRecord(env),
    // A signal after the last scenario still stopped the run (and exits 130/143): say so.
    verdict: signal?.aborted ? 'interrupted' : overallVerdict(results),
    scenarios: results,
    ...runWarnings(results, options.strict === true),
    ...(options.toxic?.length ? { toxics: env.runToxics.map((t) => ({ ...t })) } : {}),
    ...(signal?.aborted ? { interruptedBy: String(signal.reason) } : {}),
    ...(shard ? { shard } : {}),
  };
}
