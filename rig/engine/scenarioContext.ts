// The engine's side of the ScenarioContext (scenarioContextInterface.ts, all a scenario sees): how
// each of its members is done. What the engine reads back when the scenario ends (checks,
// histograms, counters, the timeline, fault events, series, traffic, log) is scenarioRecording.ts.
import type { ArrivalShare } from '../load/shardedArrivals.ts';
import { SCRIPTED_SKILL_ID } from '../protocol/rigScript.ts';
import { AnswerSynthesizer, EventHistory, type A2AClient, type AgentDescription } from '../client/index.ts';
import { answerFlood, type AnswerFlood } from './kit/answerFlood.ts';
import type { Verdict } from '../results/runResult.ts';
import type { RecordedMeasures } from '../results/metricNames.ts';
import type { Iteration, OpenModelOptions, OpenModelResult } from '../load/openModelExecutor.ts';
import type { ProfileName } from './kit/profiles.ts';
import { acceptanceKit } from './kit/acceptanceKit.ts';
import type {
  AcceptanceKit,
  AgentFacts,
  AnswerablePrompt,
  FaultHelpers,
  NewClientOptions,
  ScenarioContext,
  UsablePrompt,
} from './kit/scenarioContextInterface.ts';
import { sleep, within } from './kit/abortableWait.ts';
import type { Environment } from './environment/environment.ts';
import { answerObserved, type ObservedAnswer } from './kit/resumeObserver.ts';
import { replayChecks, replayFindings } from './kit/replayVerdict.ts';
import type { ReplayFinding } from './kit/replayChecker.ts';
import {
  attemptPrompt,
  openedPrompt,
  type OpenPrompt,
  type PromptAttempt,
  type PromptOptions,
} from './kit/promptOpener.ts';
import {
  acceptanceIteration,
  roundTripIteration,
  type AcceptanceRoundTripChoice,
  type RoundTripChoice,
} from './kit/loadIterations.ts';
import { acceptanceWithSpec, hitlWithSpec } from './workerIterations.ts';
import { ScenarioLoad } from './scenarioLoad.ts';
import type { AttackTarget, LivePrompt } from '../attack/attackTypes.ts';
import { attackTargetOf, livePromptOf } from './dos/loopbackTarget.ts';
import { mixedRun, type MixedRunPlan, type MixedRunResult, type Phase } from './dos/attackRun.ts';
import { residentMemoryBytes, resourceSource, type ResourceSource } from './dos/agentResources.ts';
import { ScenarioRecording, type ScenarioHooks } from './scenarioRecording.ts';
import { scenarioFaults } from './scenarioFaults.ts';

/** Thrown by `ctx.skip()`: the scenario cannot run here, and says why. */
export class ScenarioSkipped extends Error {
  override name = 'ScenarioSkipped';
}

export class EngineScenarioContext extends ScenarioRecording implements ScenarioContext {
  readonly history = new EventHistory();
  readonly client: A2AClient;
  readonly direct: A2AClient;
  readonly faults: FaultHelpers;
  readonly acceptance: AcceptanceKit = acceptanceKit(this);
  private readonly synthesizer: AnswerSynthesizer;
  private readonly extraClients: A2AClient[] = [];
  private readonly load: ScenarioLoad;

  constructor(
    private readonly env: Environment,
    readonly profile: ProfileName,
    readonly signal: AbortSignal,
    private readonly deadline: number,
    private readonly priorVerdicts: ReadonlyMap<string, Verdict>,
    records: RecordedMeasures = { latencies: [], counters: {} },
    hooks: ScenarioHooks = {},
    share?: ArrivalShare, // a distributed run's worker: its share of each schedule
  ) {
    super(env.options.observer, records, hooks);
    const { observer: run, workers = 1 } = env.options;
    const remainingMs = () => this.remainingMs();
    const log = (line: string) => this.log(line);
    this.load = new ScenarioLoad({ workers, signal, remainingMs, run, traffic: this.traffic, log, share });
    // A scenario's calls end with it: each takes its signal unless the call passes its own.
    this.client = env.client(this.history, undefined, this.traffic).abortWith(signal);
    this.direct = env.directClient(this.traffic).abortWith(signal);
    this.synthesizer = new AnswerSynthesizer(this.client.guard.validator);
    this.faults = scenarioFaults(
      env,
      (action, target, detail) => this.faultEvent(action, target, detail),
      (reason) => this.skip(reason),
      () => this.extraClients.some((c) => !c.viaProxy),
    );
  }

  /** What the rig knows about the agent. */
  get agent(): AgentFacts {
    const card = this.env.agent.card;
    const skills = Array.isArray(card.skills) ? (card.skills as Array<{ id?: unknown }>) : [];
    return {
      name: this.env.agent.name,
      generation: this.env.agent.generation,
      binding: this.env.agent.binding,
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

  skip(reason: string): never {
    throw new ScenarioSkipped(reason);
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

  /** Another client with its own connection pool, sharing this history: through the proxy or past it (`proxy`). */
  newClient(connections: number, options: NewClientOptions = {}): A2AClient {
    const history = options.keepResponses === false ? new EventHistory({}, false) : this.history;
    const client = this.env.client(history, connections, this.traffic, options.proxy).abortWith(this.signal);
    this.extraClients.push(client);
    return client;
  }

  async restartAgent(): Promise<void> {
    if (!this.env.canRestart)
      this.skip('the agent cannot be restarted here (use the embedded agent, or --restart-cmd with --target)');
    const killedAt = performance.now();
    await this.env.restart();
    const ms = Math.round(performance.now() - killedAt);
    this.faultEvent('restart', 'agent', `answering again after ${ms} ms`, killedAt);
  }

  /** Resident memory of the embedded agent in bytes (Linux /proc); undefined for other agents. */
  agentMemoryBytes(): number | undefined {
    return this.env.embeddedPid ? residentMemoryBytes(this.env.embeddedPid) : undefined;
  }

  /**
   * Drives a new task into INPUT_REQUIRED: with `steps` as an a2a-rig script when the agent follows
   * scripts, with a plain message otherwise. Skips the scenario when the agent does not park the
   * task with an envelope; returns the S-2 verdict on the envelope and synthesized answers.
   */
  async openPrompt(steps?: unknown[], options: PromptOptions = {}): Promise<OpenPrompt> {
    const opened = openedPrompt(await this.attemptPrompt(steps, options));
    return 'skip' in opened ? this.skip(opened.skip) : opened;
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
    for (const c of replayChecks(findings, taskIds.length, label)) this.check(c.name, c.ok, c.detail);
    return findings;
  }

  /** Drives an open-model load (rig/load/openModelExecutor.ts), stopped with the scenario (signal, budget). */
  async runOpenModel(options: OpenModelOptions): Promise<OpenModelResult> {
    this.traffic.loadStarted();
    try {
      return this.loadEnded(await this.load.run(options));
    } finally {
      this.traffic.loadEnded();
    }
  }

  /** An open-model iteration: one whole HITL round trip, send → prompt → answer → resumed (see loadIterations). */
  hitlRoundTrip(choice: RoundTripChoice = {}): Iteration {
    const deps = { client: this.client, scripts: this.agent.scripts, synthesizer: this.synthesizer };
    const iteration = roundTripIteration({ ...deps, remainingMs: () => this.remainingMs() }, choice);
    return hitlWithSpec(iteration, { ...deps, deadline: this.deadline }, choice);
  }

  /**
   * An open-model iteration: one whole acceptance round trip, send → artifacts → pending → accept →
   * terminal (see loadIterations).
   */
  acceptanceRoundTrip(choice: AcceptanceRoundTripChoice = {}): Iteration {
    const deps = { client: this.client, scripts: this.agent.scripts };
    return acceptanceWithSpec(acceptanceIteration(deps, choice), deps, choice);
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
    const openPrompt = async (): Promise<LivePrompt> =>
      livePromptOf(await this.attemptPrompt(steps, { client: this.direct }));
    const target = attackTargetOf({
      directUrl: this.env.directUrl,
      directRpcUrl: this.env.directRpcUrl,
      generation: this.env.agent.generation,
      binding: this.env.agent.binding,
      hitlDeclared: this.env.agent.hitl.declared,
      sourceAddress,
      access: this.env.options.access,
      ...(this.env.agent.hitl.declared ? { openPrompt } : {}),
    });
    return 'refused' in target ? this.skip(target.refused) : target;
  }

  /**
   * Where the agent's RSS, CPU and connections can be read: its /proc when the rig started it, else
   * its /metrics; or why neither.
   */
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
      runAttack: (a, target, schedule) => this.load.attack(a, target, schedule),
      signal: this.signal,
    });
  }

  answerFlood(flood: AnswerFlood) {
    return answerFlood(flood, this.load.jobPool(), this);
  }

  async close(): Promise<void> {
    const clients = [this.client, this.direct, ...this.extraClients];
    await Promise.allSettled([this.load.close(), ...clients.map((c) => c.close())]);
  }
}
