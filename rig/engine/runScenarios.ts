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
  /** Parameter overrides per scenario name (`--param`, see paramOverrides.ts). */
  paramOverrides?: Record<string, Record<string, unknown>>;
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

async function runOne(
  scenario: ScenarioDefinition<object>,
  env: Environment,
  profile: ProfileName,
  prior: Map<string, Verdict>,
  overrides: Record<string, unknown> = {},
  runSignal?: AbortSignal,
  watched?: { position: ScenarioPosition; observer: RunObserver },
): Promise<ScenarioResult> {
  const started = performance.now();
  const budgetMs = scenario.budgetMs[profile];
  const controller = new AbortController();
  // Every request of the scenario watches its signal (a flood: a thousand at once); not a leak.
  setMaxListeners(0, controller.signal);
  let onInterrupt: (() => void) | undefined;
  /**
   * How many checks were made when a signal interrupted the scenario (undefined: none did). Later
   * checks judge the abort, not the agent.
   */
  let checksBeforeSignal: number | undefined;
  let ended = false;
  // A line logged after the scenario ended (a stray promise of it) is kept in its results but not shown live.
  const hooks: ScenarioHooks = watched
    ? {
        liveTraffic: watched.observer.onTraffic !== undefined,
        onLog: (l) => {
          if (!ended) watched.observer.onLog?.({ ...watched.position, t: l.t, line: l.line });
        },
      }
    : {};
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
  let verdict: Verdict;
  let reason: string | undefined;
  let stack: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let health: RigHealth | undefined;
  try {
    const unmet = unmetNeeds(scenario, env, ctx);
    if (unmet) throw new ScenarioSkipped(unmet);
    await env.applyRunToxics();
    const overrun = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new BudgetOverrun(`exceeded its ${budgetMs} ms budget`));
      }, budgetMs);
    });
    // A signal ends the scenario now, whatever it awaits: its own code sees the aborted ctx.signal.
    const interrupted = new Promise<never>((_, reject) => {
      onInterrupt = () => {
        checksBeforeSignal = ctx.checks.length;
        controller.abort();
        reject(new Error('interrupted'));
      };
      if (runSignal?.aborted) onInterrupt();
      else runSignal?.addEventListener('abort', onInterrupt, { once: true });
    });
    await Promise.race([scenario.run(ctx, params), overrun, interrupted]);
    ({ verdict, reason } = verdictOfChecks(ctx.checks));
  } catch (err) {
    if (err instanceof ScenarioSkipped) {
      verdict = 'skipped';
      reason = err.message;
    } else if (isReachFailure(err)) {
      // Nothing the agent did: the rig never got a connection to it (a check failed before stands).
      verdict = ctx.checks.some(checkFailed) ? 'failed' : 'errored';
      reason = `the rig could not reach the agent: ${err.message}`;
    } else {
      verdict = ctx.checks.some(checkFailed) ? 'failed' : 'errored';
      reason = (err as Error).message;
      // Where the scenario broke; not for an overrun (the engine's timer threw it) or a failed check.
      if (verdict === 'errored' && !(err instanceof BudgetOverrun)) stack = errorStack(err);
    }
  } finally {
    health = await watch.stop();
    clearTimeout(timer);
    clearInterval(ticker);
    if (onInterrupt) runSignal?.removeEventListener('abort', onInterrupt);
    controller.abort();
    await ctx.close();
    ended = true;
    // Interrupted: the environment is closed next, which deletes the proxy and its toxics.
    if (!runSignal?.aborted) await env.faults?.reset().catch(() => {});
  }
  // Whatever the scenario's own end said (an aborted request errors), a signal is why it ended —
  // if it came while the scenario ran, not while it was being cleaned up after it finished.
  if (checksBeforeSignal !== undefined) {
    verdict = 'interrupted';
    reason = `interrupted by ${String(runSignal?.reason)}`;
    stack = undefined;
  }
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
    durationMs: Math.round(performance.now() - started),
    params,
    checks: checksBeforeSignal === undefined ? ctx.checks : ctx.checks.slice(0, checksBeforeSignal),
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

/** Runs `scenarios` (already selected and ordered) and returns the run's result. */
export async function runScenarios(scenarios: ScenarioDefinition<object>[], options: RunOptions): Promise<RunResult> {
  const startedAt = new Date();
  // What else loaded the machine before this run began: compare trusts no latency measured on an overloaded machine.
  const loadPerCore = Number((loadavg()[0]! / cpus().length).toFixed(2));
  const started = performance.now();
  const runId = options.runId ?? newRunId(startedAt);
  const refusals = new RefusalWatch();
  const env = await Environment.open({ ...options, runId, access: { ...options.access, onRefused: refusals.hear } });
  const results: ScenarioResult[] = [];
  const prior = new Map<string, Verdict>();
  const { signal, observer } = options;
  let shard: ShardRecord | undefined;
  try {
    if (options.shard) shard = { ...options.shard.record, ...(await options.shard.meet(signal ?? NEVER)) };
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
          await runOne(scenario, env, options.profile, prior, options.paramOverrides?.[scenario.name], signal, watched),
          options.strict === true,
        ),
      );
      prior.set(scenario.name, result.verdict);
      results.push(result);
      observer?.onScenarioEnd?.({ ...position, result });
    }
  } finally {
    await env.close();
  }
  const proxy = env.proxyRecord;
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
    target: {
      kind: env.kind,
      url: env.directUrl,
      agentName: env.agent.name,
      agentVersion: typeof env.agent.card.version === 'string' ? env.agent.card.version : undefined,
      generation: env.agent.generation,
      binding: env.agent.binding,
      hitlDeclared: env.agent.hitl.declared,
      agentFaults: options.agentFaults,
      cardDigest: cardDigest(env.agent.card),
      rpcUrl: env.directRpcUrl,
      ...(env.endpointNote ? { endpointNote: env.endpointNote } : {}),
    },
    proxy: proxy
      ? {
          backend: proxy.kind,
          version: proxy.version,
          api: proxy.url,
          proxyName: env.proxyName,
          detail: proxy.detail,
          passedOver: [...proxy.passedOver],
        }
      : null,
    // A signal after the last scenario still stopped the run (and exits 130/143): say so.
    verdict: signal?.aborted ? 'interrupted' : overallVerdict(results),
    scenarios: results,
    ...runWarnings(results, options.strict === true),
    ...(options.toxics?.length ? { toxics: env.runToxics.map((t) => ({ ...t })) } : {}),
    ...(signal?.aborted ? { interruptedBy: String(signal.reason) } : {}),
    ...(shard ? { shard } : {}),
  };
}
