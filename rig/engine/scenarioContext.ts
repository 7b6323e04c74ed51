// The engine's side of the ScenarioContext (scenarioContextInterface.ts, all a scenario sees): how
// each of its members is done, and what the engine reads back when the scenario ends (checks,
// histograms, counters, the timeline, fault events, series, traffic, log).
import { readFileSync } from 'node:fs';
import { SCRIPTED_SKILL_ID } from '../protocol/rigScript.ts';
import { AnswerSynthesizer, EventHistory, type A2AClient, type AgentDescription } from '../client/index.ts';
import type { AppliedToxic } from '../proxy/faultControl.ts';
import { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import { LatencyTimeline } from '../metrics/latencyTimeline.ts';
import { TrafficRecorder } from '../metrics/trafficRecorder.ts';
import type { CheckResult, FaultEvent, LogLine, SeriesPoint, Verdict } from '../results/runResult.ts';
import type { Iteration, OpenModelOptions, OpenModelResult } from '../load/openModelExecutor.ts';
import type { ProfileName } from './profiles.ts';
import type {
  AgentFacts,
  AnswerablePrompt,
  FaultHelpers,
  ScenarioContext,
  UsablePrompt,
} from './scenarioContextInterface.ts';
import { sleep, within } from './abortableWait.ts';
import { declarationOf, seriesKey, type RecordedMeasures } from '../results/metricNames.ts';
import type { Environment } from './environment.ts';
import { answerObserved, type ObservedAnswer } from './resumeObserver.ts';
import { replayFindings } from './replayVerdict.ts';
import type { ReplayFinding } from './replayChecker.ts';
import { attemptPrompt, type OpenPrompt, type PromptAttempt, type PromptOptions } from './promptOpener.ts';
import {
  acceptanceIteration,
  roundTripIteration,
  runWithinBudget,
  type AcceptanceRoundTripChoice,
  type RoundTripChoice,
} from './loadIterations.ts';
import { observedOpenModel } from './observedOpenModel.ts';
import type { AttackTarget, LivePrompt } from '../attack/attackTypes.ts';
import { attackTargetOf } from './attackTarget.ts';
import { mixedRun, type MixedRunPlan, type MixedRunResult, type Phase } from './attackRun.ts';
import { resourceSource, type ResourceSource } from './agentResources.ts';
import { ScenarioLog } from './scenarioLog.ts';

/** Thrown by `ctx.skip()`: the scenario cannot run here, and says why. */
export class ScenarioSkipped extends Error {
  override name = 'ScenarioSkipped';
}

/** What the engine hears from a scenario as it runs. */
export interface ScenarioHooks {
  /** Each ctx.log / ctx.note line as it is said (the live display). */
  onLog?(line: LogLine): void;
  /** Someone shows the traffic live: keep the last second's latencies (TrafficRecorder.liveSecond). */
  liveTraffic?: boolean;
}

function toxicDetail(toxic: AppliedToxic): string {
  const attributes = Object.entries(toxic.attributes)
    .map(([k, v]) => ` ${k}=${v}`)
    .join('');
  return `${toxic.type} ${toxic.stream}${toxic.toxicity !== 1 ? ` toxicity=${toxic.toxicity}` : ''}${attributes}`;
}

export class EngineScenarioContext implements ScenarioContext {
  readonly history = new EventHistory();
  readonly checks: CheckResult[] = [];
  readonly metrics = new Map<string, LatencyHistogram>();
  readonly counters = new Map<string, number>();
  /** When the scenario started (performance.now()): t = 0 of its timeline and fault events. */
  readonly startedAt = performance.now();
  /** Every latency recorded, in time buckets (the report's latency-over-time chart). */
  readonly timeline = new LatencyTimeline(this.startedAt);
  /** Every fault injected or lifted through `faults` or `restartAgent`, in order. */
  readonly faultEvents: FaultEvent[] = [];
  /** Curves plotted with `plot()` (results.json `series`). */
  readonly series = new Map<string, SeriesPoint[]>();
  /** The scenario's own traffic through its clients (results.json `traffic`), and its open-model loads. */
  readonly traffic: TrafficRecorder;
  readonly client: A2AClient;
  readonly direct: A2AClient;
  readonly faults: FaultHelpers;
  private readonly synthesizer: AnswerSynthesizer;
  private readonly extraClients: A2AClient[] = [];
  private readonly log_ = new ScenarioLog();

  constructor(
    private readonly env: Environment,
    readonly profile: ProfileName,
    readonly signal: AbortSignal,
    private readonly deadline: number,
    private readonly priorVerdicts: ReadonlyMap<string, Verdict>,
    private readonly records: RecordedMeasures = { latencies: [], counters: {} },
    private readonly hooks: ScenarioHooks = {},
  ) {
    this.traffic = new TrafficRecorder(this.startedAt, { live: hooks.liveTraffic === true });
    this.client = env.client(this.history, undefined, this.traffic);
    this.direct = env.directClient(this.traffic);
    this.synthesizer = new AnswerSynthesizer(this.client.guard.validator);
    const faults = env.faults;
    const proxyName = env.proxyName ?? '';
    const missing = () => this.skip(env.faultsUnavailableReason ?? 'no fault backend');
    this.faults = {
      available: faults !== undefined,
      add: async (spec) => {
        if (!faults) return missing();
        const toxic = await faults.addToxic(proxyName, spec);
        this.faultEvent('add', toxic.name, toxicDetail(toxic));
        return toxic;
      },
      remove: async (name) => {
        if (!faults) return missing();
        await faults.removeToxic(proxyName, name);
        this.faultEvent('remove', name);
      },
      setEnabled: async (enabled) => {
        if (!faults) return missing();
        const proxy = await faults.setEnabled(proxyName, enabled);
        this.faultEvent(enabled ? 'enable' : 'disable', 'proxy');
        return proxy;
      },
      reset: async () => {
        if (!faults) return;
        await env.resetFaults();
        this.faultEvent('reset', 'proxy');
      },
    };
  }

  /** Recorded once the change took effect (a restart: when the kill began), so the timeline shows when faults were really in place. */
  private faultEvent(action: FaultEvent['action'], target: string, detail?: string, at = performance.now()): void {
    const t = Math.round(at - this.startedAt);
    const event: FaultEvent = detail === undefined ? { t, action, target } : { t, action, target, detail };
    this.faultEvents.push(event);
    this.env.options.observer?.onFaultEvent?.(event);
  }

  /** What the rig knows about the agent. */
  get agent(): AgentFacts {
    const card = this.env.agent.card;
    const skills = Array.isArray(card.skills) ? (card.skills as Array<{ id?: unknown }>) : [];
    return {
      name: this.env.agent.name,
      generation: this.env.agent.generation,
      hitl: this.env.agent.hitl.declared,
      scripts: skills.some((s) => s?.id === SCRIPTED_SKILL_ID),
      kind: this.env.kind,
      canRestart: this.env.canRestart,
      /** The agent offers the replay plane (/events), as probed when the environment opened: a task-free handshake. */
      replayPlane: this.env.replayPlane.offered,
    };
  }

  /** What discovery read from the agent card: generation, endpoints, the extension declaration, problems. */
  get card(): Readonly<AgentDescription> {
    return this.env.agent;
  }

  /** Records a check; returns `ok` so a scenario can branch on it. */
  check(name: string, ok: boolean, detail?: string): boolean {
    this.checks.push(detail === undefined ? { name, ok } : { name, ok, detail });
    return ok;
  }

  /** The histogram of a declared latency (labels: one series of a labelled one, `round_trip{rate=40}`). */
  latency(base: string, labels?: Record<string, string | number>): LatencyHistogram {
    const name = this.declared(base, labels, this.records.latencies, 'latency');
    let h = this.metrics.get(name);
    if (!h) {
      const observer = this.env.options.observer;
      h = new LatencyHistogram(undefined, (us, at) => {
        this.timeline.record(name, us, at);
        observer?.onLatency?.(name, us);
      });
      this.metrics.set(name, h);
    }
    return h;
  }

  count(base: string, by = 1, labels?: Record<string, string | number>): void {
    const name = this.declared(base, labels, Object.keys(this.records.counters), 'counter');
    this.counters.set(name, (this.counters.get(name) ?? 0) + by);
  }

  /** A recorded name must be declared in the scenario's `records`, so thresholds can be checked before a run. */
  private declared(
    base: string,
    labels: Record<string, string | number> | undefined,
    declared: string[],
    kind: string,
  ): string {
    const declaration = declarationOf(base, declared);
    const given = Object.keys(labels ?? {});
    if (
      !declaration ||
      declaration.base !== base ||
      declaration.labels.length !== given.length ||
      !given.every((k) => declaration.labels.includes(k))
    ) {
      throw new Error(
        `${kind} ${seriesKey(base, labels)} is not declared in the scenario's records (${declared.join(', ') || 'none'})`,
      );
    }
    // Labels in declared order, so one series has one key however the call spells it.
    return seriesKey(base, Object.fromEntries(declaration.labels.map((k) => [k, labels![k]!])));
  }

  skip(reason: string): never {
    throw new ScenarioSkipped(reason);
  }

  /** A line for the terminal (under the progress display) and results.json `log`, with its time. */
  log(line: string): void {
    const logged = { t: Math.round(performance.now() - this.startedAt), line: String(line) };
    this.log_.push(logged);
    this.hooks.onLog?.(logged);
  }

  /** The lines kept (at most LOG_LINES_KEPT: the first and the last half), and how many between them were left out. */
  get logs(): { lines: LogLine[]; dropped: number } {
    return { lines: this.log_.lines, dropped: this.log_.dropped };
  }

  private readonly noteLines: string[] = [];

  /** Something the scenario could not judge here and left out, with why: results.json `notes` (and the log). */
  note(line: string): void {
    this.noteLines.push(line);
    this.log(line);
  }

  get notes(): readonly string[] {
    return this.noteLines;
  }

  remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  sleep(ms: number): Promise<boolean> {
    return sleep(ms, this.signal);
  }

  within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
    return within(promise, ms, this.signal);
  }

  /** The verdict of a scenario that already ran in this run (CF-7 reads CF-1..CF-6). */
  verdictOf(name: string): Verdict | undefined {
    return this.priorVerdicts.get(name);
  }

  /** Another client through the proxy with its own connection pool, sharing this history. */
  newClient(connections: number): A2AClient {
    const client = this.env.client(this.history, connections, this.traffic);
    this.extraClients.push(client);
    return client;
  }

  async restartAgent(): Promise<void> {
    if (!this.env.canRestart)
      this.skip('the agent cannot be restarted here (use the embedded agent, or --restart-cmd with --target)');
    const killedAt = performance.now();
    await this.env.restart();
    this.faultEvent(
      'restart',
      'agent',
      `answering again after ${Math.round(performance.now() - killedAt)} ms`,
      killedAt,
    );
  }

  /** Resident memory of the embedded agent in bytes (Linux /proc); undefined for other agents. */
  agentMemoryBytes(): number | undefined {
    const pid = this.env.embeddedPid;
    if (!pid) return undefined;
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Drives a new task into INPUT_REQUIRED: with `steps` as an a2a-rig script when the agent follows
   * scripts, with a plain message otherwise. Skips the scenario when the agent does not park the
   * task with an envelope; returns the S-2 verdict on the envelope and synthesized answers.
   */
  async openPrompt(steps?: unknown[], options: PromptOptions = {}): Promise<OpenPrompt> {
    const attempt = await this.attemptPrompt(steps, options);
    switch (attempt.kind) {
      case 'open':
        return attempt.open;
      case 'refused':
        throw new Error(`the agent refused to start a task: ${attempt.reason}`);
      case 'message':
        return this.skip('the agent answered with a Message, not a Task that can wait for input');
      case 'not-parked': {
        const why = attempt.statusText;
        return this.skip(
          `the agent did not park the task in INPUT_REQUIRED (it is ${attempt.task.status.state}${why ? `: ${why}` : ''})${attempt.fallback ? `; polled GetTask: ${attempt.fallback}` : ''}`,
        );
      }
      case 'no-envelope':
        return this.skip('the agent parked the task without a hitl-prompt/v1 envelope');
    }
  }

  /**
   * Like `openPrompt`, but says what happened instead of skipping when no prompt opens: for
   * scenarios in which a refusal is the expected, correct outcome (see promptOpener).
   */
  attemptPrompt(steps?: unknown[], options: PromptOptions = {}): Promise<PromptAttempt> {
    return attemptPrompt(
      {
        client: options.client ?? this.client,
        signal: this.signal,
        remainingMs: () => this.remainingMs(),
        scripts: this.agent.scripts,
        synthesizer: this.synthesizer,
      },
      steps,
      options.extensions,
    );
  }

  /**
   * Checks that the prompt is usable (its envelope passes S-2, and answers can be built from its
   * response_schema) and returns what a scenario needs to answer it; undefined when it is not.
   */
  usable(open: OpenPrompt, options: { recordPasses?: boolean } = {}): UsablePrompt | undefined {
    const record = (name: string, ok: boolean, detail?: string) =>
      ok && options.recordPasses === false ? true : this.check(name, ok, detail);
    if (!open.prompt.ok) return void record('the envelope passes the S-2 checks', false, open.prompt.reason);
    record('the envelope passes the S-2 checks', true);
    if (!open.answers) return void record('answers can be built from response_schema', false, open.answersUnavailable);
    record('answers can be built from response_schema', true);
    return { promptId: open.prompt.envelope.prompt_id, envelope: open.prompt.envelope, answers: open.answers };
  }

  async openUsablePrompt(
    steps?: unknown[],
    options: PromptOptions & { recordPasses?: boolean } = {},
  ): Promise<AnswerablePrompt | undefined> {
    const { recordPasses, ...promptOptions } = options;
    const open = await this.openPrompt(steps, promptOptions);
    const prompt = this.usable(open, recordPasses === undefined ? {} : { recordPasses });
    return prompt && { ...prompt, taskId: open.taskId, task: open.task, echoed: open.echoed };
  }

  /**
   * Checks a task's replay correctness (see replayChecker): records one check per kind of
   * finding and returns the findings. Needs the agent's replay plane.
   */
  async checkReplayOf(taskIds: string[], label = 'replay'): Promise<ReplayFinding[]> {
    const findings: ReplayFinding[] = [];
    for (const taskId of taskIds)
      findings.push(...(await replayFindings(this.direct, this.history, taskId, this.signal)));
    const kinds: Array<[ReplayFinding['check'], string]> = [
      ['full-replay-contiguous', 'the full replay is gap-free and ordered from seq 1'],
      [
        'connection-contiguous',
        'every replay connection delivers seq since+1, since+2, ... (no gap, no repeat, in order)',
      ],
      ['seen-matches-replay', 'every event seen equals the stored event at its seq'],
      ['coverage', 'the events seen across reconnects cover every seq'],
      ['envelope-identical', 'every sighting of a prompt carries the same response_schema'],
    ];
    for (const [kind, name] of kinds) {
      const hits = findings.filter((f) => f.check === kind);
      this.check(
        `${label}: ${name}`,
        hits.length === 0,
        hits.length ? `${hits.length} finding(s), first: ${hits[0].detail}` : `${taskIds.length} task(s)`,
      );
    }
    return findings;
  }

  /** Adds a point to a curve named `<y>_vs_<x>` (units in the name; see SeriesPoint in runResult.ts). */
  plot(series: string, point: SeriesPoint): void {
    const points = this.series.get(series) ?? [];
    this.series.set(series, [...points, point]);
  }

  /** Drives an open-model load (rig/load/openModelExecutor.ts), stopped with the scenario (signal, budget). */
  async runOpenModel(options: OpenModelOptions): Promise<OpenModelResult> {
    this.traffic.loadStarted();
    try {
      return await runWithinBudget(
        observedOpenModel(options, this.env.options.observer, this.traffic),
        this.signal,
        this.remainingMs(),
      );
    } finally {
      this.traffic.loadEnded();
    }
  }

  /** An open-model iteration: one whole HITL round trip, send → prompt → answer → resumed (see loadIterations). */
  hitlRoundTrip(choice: RoundTripChoice = {}): Iteration {
    return roundTripIteration(
      {
        client: this.client,
        scripts: this.agent.scripts,
        synthesizer: this.synthesizer,
        remainingMs: () => this.remainingMs(),
      },
      choice,
    );
  }

  /** An open-model iteration: one whole acceptance round trip, send → artifacts → pending → accept → terminal (see loadIterations). */
  acceptanceRoundTrip(choice: AcceptanceRoundTripChoice = {}): Iteration {
    return acceptanceIteration({ client: this.client, scripts: this.agent.scripts }, choice);
  }

  /** Answers and times the move out of INPUT_REQUIRED as a client sees it (see resumeObserver). */
  answerObserved(
    taskId: string,
    promptId: string,
    payload: unknown,
    timeoutMs = 5_000,
    client: A2AClient = this.client,
  ): Promise<ObservedAnswer> {
    return answerObserved(client, taskId, promptId, payload, {
      timeoutMs: Math.min(timeoutMs, this.remainingMs()),
      signal: this.signal,
    });
  }

  /**
   * Where attacks go (rig/attack/attackTypes.ts): the agent's own address, not the proxy, from
   * `sourceAddress`; `openPrompt` opens prompts straight at the agent (with `steps` for agents that
   * follow scripts). Skips the scenario when the agent is not on a loopback address.
   */
  attackTarget(sourceAddress: string, steps?: unknown[]): AttackTarget {
    const openPrompt = async (): Promise<LivePrompt> => {
      const attempt = await this.attemptPrompt(steps, { client: this.direct });
      if (attempt.kind !== 'open' || !attempt.open.prompt.ok)
        throw new Error(
          `no prompt opened for the attack: ${attempt.kind === 'refused' ? attempt.reason : attempt.kind === 'open' ? 'malformed envelope' : attempt.kind}`,
        );
      const { open } = attempt;
      const envelope = open.prompt.ok ? open.prompt.envelope : undefined;
      return {
        taskId: open.taskId,
        ...(open.task.contextId ? { contextId: open.task.contextId } : {}),
        promptId: envelope!.prompt_id,
        responseSchema: envelope!.response_schema,
        validPayload: open.answers?.valid,
      };
    };
    const target = attackTargetOf({
      directUrl: this.env.directUrl,
      directRpcUrl: this.env.directRpcUrl,
      generation: this.env.agent.generation,
      hitlDeclared: this.env.agent.hitl.declared,
      sourceAddress,
      ...(this.env.agent.hitl.declared ? { openPrompt } : {}),
    });
    return 'refused' in target ? this.skip(target.refused) : target;
  }

  /** Where the agent's RSS, CPU and connections can be read: its /proc when the rig started it, else its /metrics; or why neither. */
  agentResources(): Promise<ResourceSource | { unavailable: string }> {
    return resourceSource({
      pid: this.env.embeddedPid,
      metricsUrl: new URL('/metrics', this.env.directUrl).href,
      signal: this.signal,
    });
  }

  /**
   * A mixed run (attackRun.ts): legitimate HITL round trips through the proxy at a fixed rate,
   * before, during and after `plan.attacks`, recorded as `legit_round_trip{phase}` and
   * `legit_resume{phase}` (both must be declared); attack-start/stop become fault events.
   */
  mixedRun(plan: MixedRunPlan, legit: { client: A2AClient; steps?: unknown[] }): Promise<MixedRunResult> {
    const roundTrips = (phase: Phase) => this.latency('legit_round_trip', { phase });
    return mixedRun(plan, {
      runOpenModel: (o) => this.runOpenModel(o),
      legitIteration: (phase) =>
        this.hitlRoundTrip({
          client: legit.client,
          resumeTimeoutMs: plan.legitTimeoutMs,
          resumeLatency: this.latency('legit_resume', { phase }),
          ...(legit.steps ? { steps: legit.steps } : {}),
        }),
      roundTrip: (phase, us, at) => roundTrips(phase).recordMicros(us, at),
      event: (action, attack, detail, at) => this.faultEvent(action, attack, detail, at),
      signal: this.signal,
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.client.close(), this.direct.close(), ...this.extraClients.map((c) => c.close())]);
  }
}
