// The lifecycle of an acceptance gate (acceptance-criteria extension, experimental-ext-acceptance
// v1) in the reference agent. A task created by a request that activated the extension keeps its
// gate (criteria, creator, deciders, attempt, rejections) in the outbox with it. When the script's
// output is finished the agent emits the attempt's artifacts FIRST, then parks the task in
// INPUT_REQUIRED with `{EXT}/pendingAcceptance: true` on the status message; an `evaluator: agent`
// gate checks the criteria itself instead and ends COMPLETED or FAILED (AcceptanceCriteriaNotMet).
// A pending gate fails after acceptanceTimeoutSeconds: the deadline is stored, so a restart re-arms
// it and one that passed while the agent was down fires at startup. Decisions: decisionMessages.ts.
import type { Message, Task, TaskState } from '../protocol/a2aTypes.ts';
import { ACCEPTANCE_URI, CRITERIA_KEY, MAX_ACCEPTANCE_TIMEOUT_S, PENDING_KEY } from '../protocol/acceptance.ts';
import type { GuardedValidator } from '../protocol/guardedValidator.ts';
import { HITL_PROMPT_URI } from '../protocol/hitlPrompt.ts';
import { readCriteria } from './acceptanceCriteria.ts';
import type { GateRow } from './gateStore.ts';
import { checkArtifacts, notMetStatus } from './artifactSelfCheck.ts';
import { decidersOf, principalOf } from './decisionAuthority.ts';
import type { FaultSet } from './faults.ts';
import type { TaskRow } from './outbox.ts';
import type { TaskWriter } from './taskWriter.ts';
import type { ArtifactStep, Script } from './script.ts';
import type { ArtifactSteps } from './artifactSteps.ts';
import { isoNow } from './isoNow.ts';

/** Longest single timer: setTimeout fires at once beyond 2^31-1 ms, so a later deadline is re-armed in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/** The extensions a message with this metadata must list (any acceptance key lists the URI). */
export function extensionsOf(metadata: Record<string, unknown>): string[] {
  const keys = Object.keys(metadata);
  return [
    ...(keys.includes(HITL_PROMPT_URI) ? [HITL_PROMPT_URI] : []),
    ...(keys.some((k) => k.startsWith(`${ACCEPTANCE_URI}/`)) ? [ACCEPTANCE_URI] : []),
  ];
}

/** What the creating request brings to a gate. */
export interface GateRequest {
  /** The request activated the acceptance extension (A2A-Extensions). */
  acceptance: boolean;
  /** Its Authorization header (the creator's principal). */
  authorization?: string;
}

/** What a gate drives of the task engine (taskEngine.ts, which creates its gate with itself). */
export interface GatedEngine extends TaskWriter {
  readonly validator: GuardedValidator;
  readonly faults: FaultSet;
  later(ms: number, fn: () => void): void;
  agentMessage(task: Task, text: string, metadata?: Record<string, unknown>): Message;
  readonly artifacts: ArtifactSteps;
}

/** Thrown inside a transition's transaction when its conditional UPDATE lost: rolls it back. */
export class GateMoved extends Error {}

export class AcceptanceGate {
  /** The acceptance-forgets-rejections fault keeps the count here instead of in the outbox. */
  private readonly rejectionsInMemory = new Map<string, number>();

  constructor(private readonly engine: GatedEngine) {}

  private get store() {
    return this.engine.outbox.gates;
  }

  /**
   * Checks the gate a creating request asks for and returns the write that stores it with the new
   * task (undefined without activation: then criteria are ignored and the task is plain). Throws
   * ACCEPTANCE_CRITERIA_INVALID before any task exists.
   */
  prepare(message: Message, request: GateRequest): ((taskId: string) => void) | undefined {
    if (!request.acceptance) return undefined;
    const skipValidation = this.engine.faults.has('acceptance-skips-criteria-validation');
    const criteria = readCriteria(message.metadata?.[CRITERIA_KEY], this.engine.validator, { skipValidation });
    const deciders = decidersOf(message.metadata);
    const creator = principalOf(request.authorization);
    return (taskId) => this.store.insert(taskId, criteria, creator, deciders);
  }

  /** The rejections a gate has had (in memory only under acceptance-forgets-rejections). */
  rejectionsOf(gate: GateRow): number {
    return this.engine.faults.has('acceptance-forgets-rejections')
      ? (this.rejectionsInMemory.get(gate.taskId) ?? 0)
      : gate.rejections;
  }

  rememberRejections(taskId: string, count: number): void {
    if (this.engine.faults.has('acceptance-forgets-rejections')) this.rejectionsInMemory.set(taskId, count);
  }

  /** The acceptance-parks-before-artifacts fault holds a gated task's artifact steps until it has parked. */
  defersArtifacts(row: TaskRow): boolean {
    if (!this.engine.faults.has('acceptance-parks-before-artifacts')) return false;
    const gate = this.store.get(row.task.id);
    return gate !== undefined && gate.criteria.evaluator !== 'agent';
  }

  /** The artifact steps attempt `attempt` emits when its output is finished. */
  private attemptArtifacts(script: Script, attempt: number): ArtifactStep['artifact'][] {
    const own = script.steps.flatMap((s) => ('artifact' in s ? [s.artifact] : []));
    // Attempt 0 ran the script's own artifact steps on its way (unless the fault held them back).
    const ownNow = attempt > 0 ? !script.attempts : this.engine.faults.has('acceptance-parks-before-artifacts');
    const extra = script.attempts
      ? script.attempts[Math.min(attempt, script.attempts.length - 1)].map((s) => s.artifact)
      : [];
    return [...(ownNow ? own : []), ...extra];
  }

  /** Emits what is left of the attempt's artifacts, each with its progress; false if one failed the task. */
  private emitAttempt(row: TaskRow, gate: GateRow): boolean {
    const list = this.attemptArtifacts(row.script as Script, gate.attempt);
    for (let k = gate.emitted; k < list.length; k += 1) {
      if (!this.engine.artifacts.emit(row, list[k], () => this.store.markEmitted(gate.taskId, gate.attempt, k + 1)))
        return false;
    }
    return true;
  }

  /** The script's output is finished (its `complete` step or its end): complete, park or self-check. */
  finish(row: TaskRow, text?: string): void {
    const gate = row.gateless ? undefined : this.store.get(row.task.id);
    if (!gate || gate.outcome !== null) return void this.engine.setStatus(row, 'TASK_STATE_COMPLETED', text);
    const { faults } = this.engine;
    if (gate.criteria.evaluator === 'agent') {
      if (this.emitAttempt(row, gate)) this.selfCheck(row, text);
      return;
    }
    if (faults.has('acceptance-completes-without-waiting')) {
      if (this.emitAttempt(row, gate))
        this.engine.setStatus(row, 'TASK_STATE_COMPLETED', text, undefined, () =>
          this.store.settle(gate.taskId, 'completed'),
        );
      return;
    }
    if (faults.has('acceptance-parks-before-artifacts')) {
      this.park(row, gate);
      this.emitAttempt(row, gate);
      return;
    }
    if (this.emitAttempt(row, gate)) this.park(row, gate);
  }

  private park(row: TaskRow, gate: GateRow): void {
    const { criteria, attempt } = gate;
    // Clamped for the date only: validated criteria are within it already, and the skips-criteria-
    // validation fault must not turn a huge timeout into an invalid Date (a throw here ends the agent).
    const seconds = Math.min(Math.max(criteria.acceptanceTimeoutSeconds, 0), MAX_ACCEPTANCE_TIMEOUT_S);
    const described = criteria.description ? `: ${criteria.description}` : '';
    const text = `awaiting an acceptance decision on attempt ${attempt + 1}${described}`;
    // The deadline counts from the pending status's own timestamp (set by the commit just before
    // alsoWrite runs), so no reader of the two timestamps sees the gate fail a millisecond early.
    let deadline = '';
    this.engine.setStatus(row, 'TASK_STATE_INPUT_REQUIRED', text, { [PENDING_KEY]: true }, () => {
      deadline = new Date(
        Date.parse(row.task.status.timestamp!) + (Number.isFinite(seconds) ? seconds : 0) * 1000,
      ).toISOString();
      this.store.park(gate.taskId, attempt, deadline);
    });
    this.armTimeout(gate.taskId, attempt, deadline);
  }

  private selfCheck(row: TaskRow, text?: string): void {
    const gate = this.store.get(row.task.id)!;
    let failures: string[] = [];
    try {
      const result = checkArtifacts(row.task.artifacts, gate.criteria, this.engine.validator);
      if (!result.met) failures = result.failures;
    } catch (err) {
      failures = [`the criteria could not be checked: ${(err as Error).message}`];
    }
    if (failures.length === 0) {
      this.engine.setStatus(row, 'TASK_STATE_COMPLETED', text, undefined, () => this.store.settle(gate.taskId, 'met'));
      return;
    }
    // {EXT}/error: {code: -32041, message, details} on the status message, bounded by checkArtifacts.
    const { text: why, metadata } = notMetStatus(failures);
    this.engine.setStatus(row, 'TASK_STATE_FAILED', why, metadata, () => this.store.settle(gate.taskId, 'not-met'));
  }

  /**
   * One commit that runs `first` (the conditional UPDATE of the gate, the decision joining the
   * history), then sets the status with its message. `first` throwing rolls everything back.
   */
  transition(row: TaskRow, state: TaskState, text: string | undefined, first: () => void): void {
    this.engine.commit(
      row,
      (task) => {
        first();
        const message = text === undefined ? undefined : this.engine.agentMessage(task, text);
        task.status = { state, timestamp: isoNow(), ...(message ? { message } : {}) };
        if (message) this.engine.outbox.appendHistory(row, message);
      },
      (task) => ({ statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } }),
    );
  }

  private armTimeout(taskId: string, attempt: number, deadline: string): void {
    if (this.engine.faults.has('acceptance-no-timeout')) return;
    this.engine.later(Math.min(MAX_TIMER_MS, Math.max(0, Date.parse(deadline) - Date.now())), () =>
      this.timeOut(taskId, attempt),
    );
  }

  private timeOut(taskId: string, attempt: number): void {
    const gate = this.store.get(taskId);
    const row = this.engine.outbox.getTask(taskId);
    if (!gate || !gate.pending || gate.attempt !== attempt || !row) return;
    if (gate.pendingDeadline && Date.parse(gate.pendingDeadline) > Date.now())
      return this.armTimeout(taskId, attempt, gate.pendingDeadline);
    const seconds = gate.criteria.acceptanceTimeoutSeconds;
    try {
      this.transition(
        row,
        'TASK_STATE_FAILED',
        `no acceptance decision within ${seconds} s (acceptanceTimeoutSeconds)`,
        () => {
          if (!this.store.decide(taskId, attempt, 'timed-out')) throw new GateMoved();
        },
      );
    } catch (err) {
      if (!(err instanceof GateMoved)) throw err;
    }
  }

  /** After a restart: re-arm every pending gate's deadline (one already past fires now). */
  recover(): void {
    for (const gate of this.store.pendingGates())
      this.armTimeout(gate.taskId, gate.attempt, gate.pendingDeadline ?? new Date().toISOString());
  }
}
