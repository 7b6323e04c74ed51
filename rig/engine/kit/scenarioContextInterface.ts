// What a scenario's `run(ctx, params)` is given: everything a scenario may touch — the A2A clients
// (through the fault proxy, and direct for the truth), fault helpers, recorders, checks, restarts
// and the time budget — and nothing else: no sockets, no SQL, no processes. The engine's
// EngineScenarioContext (scenarioContext.ts) implements it; scenarios and their helpers know only this.
import type { AnswerFlood } from './answerFlood.ts';
import type { Binding } from '../../client/cardInterfaces.ts';
import type { Generation, Task } from '../../protocol/a2aTypes.ts';
import type { PromptEnvelope } from '../../protocol/hitlPrompt.ts';
import type {
  A2AClient,
  AcceptanceNeeds,
  AcceptanceSendOptions,
  AgentDescription,
  AnswerOutcome,
  EventHistory,
  OutgoingMessage,
  SynthesizedAnswers,
} from '../../client/index.ts';
import type { Decision } from '../../protocol/acceptance.ts';
import type { GateOpening } from './gateOpening.ts';
import type { AppliedToxic, FaultProxy, ToxicSpec } from '../../proxy/faultControl.ts';
import type { LatencyHistogram } from '../../metrics/latencyHistogram.ts';
import type { CheckResult, SeriesPoint, Verdict } from '../../results/runResult.ts';
import type { CheckOptions } from '../../results/checkResult.ts';
import type { ExpectNoneOptions } from './expectNone.ts';
import type { Iteration, OpenModelOptions, OpenModelResult } from '../../load/openModelExecutor.ts';
import type { AttackTarget } from '../../attack/attackTypes.ts';
import type { RigHealth } from '../../metrics/rigHealth.ts';
import type { ProfileName } from './profiles.ts';
import type { OpenPrompt, PromptAttempt, PromptOptions } from './promptOpener.ts';
import type { AcceptanceRoundTripChoice, RoundTripChoice } from './loadIterations.ts';
import type { ObservedAnswer } from './resumeObserver.ts';
import type { ReplayFinding } from './replayChecker.ts';
import type { MixedRunPlan, MixedRunResult } from '../dos/attackRun.ts';
import type { ResourceSource } from '../dos/agentResources.ts';
import type { ClientRoute } from '../environment/proxyRoute.ts';
import type { BackendKind } from '../../proxy/backend.ts';

export interface FaultHelpers {
  readonly available: boolean;
  /** Where the proxy runs: 'embedded' is in the rig's own process (its CPU counts as the rig's). */
  readonly backend: BackendKind | undefined;
  /** Adds a toxic to the run's proxy; the toxic as applied, its `name` the one `remove` takes. */
  add(spec: ToxicSpec): Promise<AppliedToxic>;
  remove(name: string): Promise<void>;
  /** false cuts every open connection and refuses new ones; true listens again. */
  setEnabled(enabled: boolean): Promise<FaultProxy>;
  /** Removes every toxic of the run's proxy and enables it (other proxies on the server are not touched). */
  reset(): Promise<void>;
}

/** What the rig knows about the agent. */
export interface AgentFacts {
  name: string | undefined;
  generation: Generation;
  /** The A2A binding the run speaks: JSONRPC, HTTP+JSON or GRPC. */
  binding: Binding;
  /** The card declares hitl-prompt/v1. */
  hitl: boolean;
  /** The agent follows a2a-rig scripts (the reference agent). */
  scripts: boolean;
  kind: 'embedded' | 'url';
  canRestart: boolean;
  /** The agent offers the replay plane (/events), as probed when the environment opened: a task-free handshake. */
  replayPlane: boolean;
}

/** A prompt that passed the S-2 checks, with answers built from its response_schema (`ctx.usable`). */
export interface UsablePrompt {
  promptId: string;
  envelope: PromptEnvelope;
  answers: SynthesizedAnswers;
}

/** A new task parked on a usable prompt (`ctx.openUsablePrompt`). */
export interface AnswerablePrompt extends UsablePrompt {
  taskId: string;
  task: Task;
  /** Extensions the agent echoed on the send that created the task. */
  echoed: string[];
}

export interface NewClientOptions {
  /**
   * false: the client's unary replies are S-2 checked and counted in its traffic as ever, but kept
   * in no event history (its streams go to a history of its own): for a load whose thousands of
   * replies a second nobody reads back, and whose keeping would make GC the rig's largest cost.
   */
  keepResponses?: boolean;
  /**
   * 'for-toxics': through the fault proxy only when the run has toxics (`--toxic`), else straight to
   * the agent: a load that adds no fault of its own measures the agent, not the proxy's hop (and an
   * embedded proxy's CPU in the rig's). A scenario with such a client cannot add toxics (ctx.faults
   * refuses: they would not touch it). Default 'proxy'.
   */
  proxy?: ClientRoute;
}

/** How a gated task is opened (`ctx.acceptance.openGate`): the send's options, and which client sends. */
export type GateOptions = AcceptanceSendOptions & { attempts?: number; contextId?: string; client?: A2AClient };

/**
 * The acceptance-criteria scenarios' moves and readers (acceptanceMoves.ts), bound to the scenario:
 * its client (unless one is given), its signal and its budget. `ctx.acceptance.openGate()`.
 */
export interface AcceptanceKit {
  /** How long a gated task may take to park, or to settle after a decision. */
  readonly SETTLE_MS: number;
  /** The artifact name attempt `n` (1-based) of the rig's script emits. */
  attemptName(n: number): string;
  /** A creating message: the script's artifacts per attempt (one named artifact each), then `complete`. */
  gatedScript(attempts?: number, contextId?: string): OutgoingMessage;
  /** Skips the scenario (with why) unless the agent declares the extension as the scenario needs it. */
  requireGate(needs?: AcceptanceNeeds): void;
  /** Sends a gated creating request and waits (bounded) until the task parks or settles. */
  openGate(options?: GateOptions): Promise<GateOpening>;
  /** Like `openGate`, but anything other than a pending task fails the named check and returns undefined. */
  pendingGate(check: string, options?: GateOptions): Promise<Task | undefined>;
  describeOpening(opened: GateOpening): string;
  /** Reads the task with GetTask until `until` holds (or SETTLE_MS passes); undefined if it never did. */
  settle(
    taskId: string,
    until: (task: Task) => boolean,
    options?: { timeoutMs?: number; client?: A2AClient },
  ): Promise<Task | undefined>;
  /** Settled again after a decision: pending acceptance, or terminal (as `client`, default ctx.client, reads it). */
  pendingOrTerminal(client?: A2AClient): (task: Task) => boolean;
  /** One decision on a pending task, then its next settled state; `detail` reads "applied, then TASK_STATE_FAILED". */
  decideAndSettle(
    task: Task,
    decision: Decision,
    feedback: string,
  ): Promise<{ after: Task | undefined; detail: string }>;
  isTerminal(task: Task | undefined): boolean;
  /** The state and, when pending, the flag, for a check's detail. */
  stateOf(client: A2AClient, task: Task | undefined): string;
  artifactNames(task: Task): string[];
  /** Does a history message carry this text verbatim in a text part? */
  historyHasText(task: Task, text: string): boolean;
  /** A context id no task has yet, so a listing of it shows only what this scenario created. */
  freshContextId(): string;
  /** How many tasks the agent lists in a context; unsupported (with why) where it has no ListTasks. */
  tasksInContext(client: A2AClient, contextId: string): Promise<{ count: number } | { unsupported: string }>;
  /** A terminal task's full replay as one letter per event (see acceptanceMoves.replayShape). */
  replayShape(taskId: string): Promise<{ shape: string; complete: boolean } | { refused: string }>;
}

export interface ScenarioContext {
  /**
   * Through the fault proxy. Every client of the context (this, `direct`, `newClient`'s) takes the
   * scenario's `signal` on each call that names none: a scenario never passes it; its own wins.
   */
  readonly client: A2AClient;
  /** Straight to the agent: the truth, whatever the faults do. */
  readonly direct: A2AClient;
  /**
   * Another client through the proxy with its own connection pool, sharing this history; with
   * `keepResponses: false` (a load's client) its unary replies are checked but kept in no history;
   * with `proxy: 'for-toxics'` it passes the proxy only when the run has toxics.
   */
  newClient(connections: number, options?: NewClientOptions): A2AClient;
  readonly faults: FaultHelpers;
  readonly profile: ProfileName;
  /** Aborted when the budget ends or the run is interrupted. */
  readonly signal: AbortSignal;
  readonly agent: AgentFacts;
  /** What discovery read from the agent card: generation, endpoints, the extension declaration, problems. */
  readonly card: Readonly<AgentDescription>;
  /** Every event the rig saw, on any connection. */
  readonly history: EventHistory;
  /** When the scenario started (performance.now()): t = 0 of its timeline and fault events. */
  readonly startedAt: number;
  /** The checks recorded so far. */
  readonly checks: readonly CheckResult[];
  /** The notes so far (see note()). */
  readonly notes: readonly string[];

  /**
   * Records a check; returns `ok` so a scenario can branch on it. `options.level` is the level of
   * the rule it holds: MUST (the default) fails the scenario; a failed SHOULD or `example` (the
   * contract example's shape) is a warning, which fails only a `--strict` run (results/checkResult.ts).
   */
  check(name: string, ok: boolean, detail?: string, options?: CheckOptions): boolean;
  /**
   * The one way to say "none of these `total` went wrong": passes when `problems` is empty ("n/n",
   * or `options.passed`), else fails with "k of n; e.g. <the first three>" ("k of n lost; …" with
   * `options.wrong: 'lost'`). Levels as `check`.
   */
  expectNone(name: string, problems: readonly string[], total: number, options?: ExpectNoneOptions): boolean;
  /** The acceptance-criteria moves (open a gated task, settle, decide) and readers, bound to this scenario. */
  readonly acceptance: AcceptanceKit;
  /** Records a check judged neither way, with why: the scenario is inconclusive unless one fails. */
  notJudged(name: string, detail: string): void;
  /** The histogram of a declared latency (labels: one series of a labelled one, `round_trip{rate=40}`). */
  latency(base: string, labels?: Record<string, string | number>): LatencyHistogram;
  /** Adds to a declared counter. */
  count(base: string, by?: number, labels?: Record<string, string | number>): void;
  /** Adds a point to a curve named `<y>_vs_<x>` (units in the name; see SeriesPoint in runResult.ts). */
  plot(series: string, point: SeriesPoint): void;
  /** Ends the scenario as skipped, saying why. */
  skip(reason: string): never;
  /** A line for the terminal (under the progress display) and results.json `log`, with its time. */
  log(line: string): void;
  /** Something the scenario could not judge here and left out, with why: results.json `notes` (and the log). */
  note(line: string): void;
  /**
   * A declared counter or latency measured but not to be judged, with why (capacity when the rig
   * was the limit): a threshold on it is not judged (exit 3); results.json `notJudged`, and a note.
   */
  measureNotJudged(name: string, why: string): void;
  /** The budget left, in ms. */
  remainingMs(): number;
  /**
   * Starts watching the rig over a span of the scenario (e.g. one capacity step); `end()` gives the
   * rig's health over it (rig/metrics/rigHealth.ts, for rigSaturation), undefined when not watched.
   */
  watchRig(): { end(): RigHealth | undefined };
  /** Waits `ms`, or less when the scenario is aborted: true when the time passed. */
  sleep(ms: number): Promise<boolean>;
  /** What `promise` settles to within `ms`, or undefined when the time passes or the scenario is aborted first. */
  within<T>(promise: Promise<T>, ms: number): Promise<T | undefined>;
  /** The verdict of a scenario that already ran in this run (CF-7 reads CF-1..CF-6). */
  verdictOf(name: string): Verdict | undefined;

  /** kill -9 and restart the agent (skips when it cannot be restarted here). */
  restartAgent(): Promise<void>;
  /** Resident memory of the embedded agent in bytes (Linux /proc); undefined for other agents. */
  agentMemoryBytes(): number | undefined;
  /**
   * Where the agent's RSS, CPU and connections can be read: its /proc when the rig started it, else its
   * /metrics; or why neither.
   */
  agentResources(): Promise<ResourceSource | { unavailable: string }>;

  /**
   * Drives a new task into INPUT_REQUIRED: with `steps` as an a2a-rig script when the agent follows
   * scripts, with a plain message otherwise. Skips the scenario when the agent does not park the
   * task with an envelope; returns the S-2 verdict on the envelope and synthesized answers.
   */
  openPrompt(steps?: unknown[], options?: PromptOptions): Promise<OpenPrompt>;
  /**
   * Like `openPrompt`, but says what happened instead of skipping when no prompt opens (a refusal may be
   * the correct outcome).
   */
  attemptPrompt(steps?: unknown[], options?: PromptOptions): Promise<PromptAttempt>;
  /**
   * Checks that the prompt is usable (its envelope passes S-2, and answers can be built from its
   * response_schema) and returns what a scenario needs to answer it; undefined when it is not.
   * `recordPasses: false` records only the failing check.
   */
  usable(open: OpenPrompt, options?: { recordPasses?: boolean }): UsablePrompt | undefined;
  /**
   * `openPrompt` then `usable`: a new task parked on a prompt ready to answer, or undefined (the failing
   * check recorded).
   */
  openUsablePrompt(
    steps?: unknown[],
    options?: PromptOptions & { recordPasses?: boolean },
  ): Promise<AnswerablePrompt | undefined>;
  /** Answers and times the move out of INPUT_REQUIRED as a client sees it (see resumeObserver). */
  answerObserved(
    taskId: string,
    promptId: string,
    payload: unknown,
    timeoutMs?: number,
    client?: A2AClient,
  ): Promise<ObservedAnswer>;
  /**
   * Checks tasks' replay correctness (see replayChecker): one check per kind of finding. Needs the
   * agent's replay plane.
   */
  checkReplayOf(taskIds: string[], label?: string): Promise<ReplayFinding[]>;

  /** Drives an open-model load (rig/load/openModelExecutor.ts), stopped with the scenario (signal, budget). */
  runOpenModel(options: OpenModelOptions): Promise<OpenModelResult>;
  /** An open-model iteration: one whole HITL round trip, send → prompt → answer → resumed. */
  hitlRoundTrip(choice?: RoundTripChoice): Iteration;
  /** An open-model iteration: one whole acceptance round trip, send → artifacts → pending → accept → terminal. */
  acceptanceRoundTrip(choice?: AcceptanceRoundTripChoice): Iteration;

  /**
   * Where attacks go: the agent's own address, not the proxy, from `sourceAddress`. Skips when the agent
   * is not on loopback.
   */
  attackTarget(sourceAddress: string, steps?: unknown[]): AttackTarget;
  /** Legitimate HITL round trips at a fixed rate before, during and after `plan.attacks` (attackRun.ts). */
  mixedRun(plan: MixedRunPlan, legit: { client: A2AClient; steps?: unknown[] }): Promise<MixedRunResult>;
  /**
   * K answers to one prompt at once over C new clients through the proxy (answerFlood.ts), on the
   * worker threads when there are several; every answer's outcome, in answer order.
   */
  answerFlood(flood: AnswerFlood): Promise<AnswerOutcome[]>;
}
