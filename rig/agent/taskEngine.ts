// Runs tasks through their scripts: every state change is one outbox transaction plus the event
// that announces it, published after the batch holding it commits (outbox.ts, group commit).
// Steps that need no waiting run back to back; a prompt parks the task in INPUT_REQUIRED until
// `hitlAnswers` accepts an answer.
import { randomUUID } from 'node:crypto';
import type { Message, StreamResponse, Task, TaskState } from '../protocol/a2aTypes.ts';
import { TERMINAL_STATES, isSettled } from '../protocol/a2aTypes.ts';
import {
  A2AError,
  A2A_TASK_NOT_CANCELABLE,
  A2A_TASK_NOT_FOUND,
  JSONRPC_INVALID_PARAMS,
} from '../protocol/errorCodes.ts';
import type { GuardedValidator } from '../protocol/guardedValidator.ts';
import { DEFAULT_AGENT_LIMITS, type AgentLimits } from './agentLimits.ts';
import type { AgentMetrics } from './agentMetrics.ts';
import type { FaultSet } from './faults.ts';
import type { Outbox, StoredEvent, TaskRow } from './outbox.ts';
import { newTaskRow } from './taskRow.ts';
import type { TaskWriter } from './taskWriter.ts';
import { PromptSteps } from './promptSteps.ts';
import type { Script } from './script.ts';
import { StepBatch, writeTransition } from './stepBatch.ts';
import { StreamQuota } from './streamQuota.ts';
import { AcceptanceGate, extensionsOf } from './gateLifecycle.ts';
import { ArtifactSteps } from './artifactSteps.ts';
import { TaskEvents } from './taskEvents.ts';
import { SettleWait } from './settleWait.ts';
import { isoNow } from './isoNow.ts';
import { logUnexpected } from './httpGuards.ts';

/** Longest a blocking send waits for the task to settle before returning it as it is. */
const BLOCKING_WAIT_MS = 60_000;

export class TaskEngine implements TaskWriter {
  readonly events = new TaskEvents();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    readonly outbox: Outbox,
    readonly validator: GuardedValidator,
    readonly faults: FaultSet,
    readonly metrics?: AgentMetrics,
    readonly limits: AgentLimits = DEFAULT_AGENT_LIMITS,
  ) {
    this.streams = new StreamQuota(limits);
    this.acceptance = new AcceptanceGate(this);
    this.prompts = new PromptSteps(this);
    this.artifacts = new ArtifactSteps(this);
  }

  /** The acceptance-criteria gate of tasks created with it activated (gateLifecycle.ts). */
  readonly acceptance: AcceptanceGate;

  /** Open event streams (SSE and replay sockets), bounded per task and in total. */
  readonly streams: StreamQuota;

  /** Artifact steps, sized against the task's bound before they are built (artifactSteps.ts). */
  readonly artifacts: ArtifactSteps;

  /** Prompt steps: the envelope, the INPUT_REQUIRED status and the deadline signal (promptSteps.ts). */
  private readonly prompts: PromptSteps;

  /** The steps advance() runs now (stepBatch.ts): their row is written once, at their end. */
  private steps: StepBatch | undefined;

  /**
   * The task as a caller sees it: the newest history messages within the view bounds (and within
   * `historyLength` when the caller asked for fewer). A2A lets a server bound history; an unbounded
   * view of one big task copied to every stream open on it multiplies its size by their number.
   */
  view(row: TaskRow, historyLength?: unknown): Task {
    const asked = typeof historyLength === 'number' && historyLength >= 0 ? Math.floor(historyLength) : Infinity;
    const entries = Math.min(asked, this.limits.viewHistoryEntries);
    return { ...row.task, history: this.outbox.recentHistory(row.task.id, entries, this.limits.viewHistoryBytes) };
  }

  /** Refuses a user message that would take the task's history past its bounds. */
  ensureHistoryRoom(row: TaskRow, message: Message): void {
    const bytes = Buffer.byteLength(JSON.stringify(message));
    const { maxHistoryEntries, maxHistoryBytes } = this.limits;
    if (row.historyCount + 1 > maxHistoryEntries || row.historyBytes + bytes > maxHistoryBytes) {
      throw new A2AError(
        JSONRPC_INVALID_PARAMS,
        `task ${row.task.id} holds ${row.historyCount} messages (${row.historyBytes} bytes); ` +
          `a task accepts at most ${maxHistoryEntries} messages and ${maxHistoryBytes} bytes of history`,
      );
    }
  }

  /** Schedules `fn` after `ms`, owned by the engine so `close()` can clear it. */
  later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(timer);
  }

  getRow(taskId: string): TaskRow {
    const row = this.outbox.getTask(taskId);
    if (!row) throw new A2AError(A2A_TASK_NOT_FOUND, `task ${taskId} not found`);
    return row;
  }

  /**
   * Applies `mutate` to the task and appends the event `eventOf` builds, in one transaction
   * (with `alsoWrite` for rows that must change with them), then publishes the event. Inside
   * advance() the row is written (and the event published) once its steps' transaction succeeds.
   */
  commit(
    row: TaskRow,
    mutate: (task: Task) => void,
    eventOf: (task: Task) => StreamResponse,
    alsoWrite?: () => void,
  ): StoredEvent {
    const steps = this.steps?.row === row ? this.steps : undefined;
    if (steps) return steps.write(() => writeTransition(this.outbox, row, mutate, eventOf, alsoWrite, false));
    const stored = this.outbox.transaction(() => writeTransition(this.outbox, row, mutate, eventOf, alsoWrite, true));
    this.announce(stored, row.task);
    return stored;
  }

  /** Counts the event and publishes it once its commit is durable, with the task as it was at that
   * event (later transitions of the same batch must not show through: a stream would close on a
   * later state). */
  private announce(stored: StoredEvent, task: Task): void {
    this.metrics?.eventAppended();
    const asOf: Task = { ...task };
    this.outbox.afterCommit((failed) => {
      if (!failed) this.events.publish(stored, asOf);
    });
  }

  setStatus(
    row: TaskRow,
    state: TaskState,
    text?: string,
    metadata?: Record<string, unknown>,
    alsoWrite?: () => void,
  ): StoredEvent {
    return this.commit(
      row,
      (task) => {
        const message: Message | undefined = text === undefined ? undefined : this.agentMessage(task, text, metadata);
        task.status = { state, timestamp: isoNow(), ...(message ? { message } : {}) };
        // Appended as a row of its own: the commit never rewrites the history (see outbox.ts).
        if (message) this.outbox.appendHistory(row, message);
      },
      (task) => ({ statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } }),
      alsoWrite,
    );
  }

  agentMessage(task: Task, text: string, metadata?: Record<string, unknown>): Message {
    return {
      messageId: randomUUID(),
      role: 'ROLE_AGENT',
      taskId: task.id,
      contextId: task.contextId,
      parts: [{ text }],
      ...(metadata ? { metadata, extensions: extensionsOf(metadata) } : {}),
    };
  }

  /**
   * `withTask` writes rows that belong to the new task (its acceptance gate) in its transaction.
   * `runNow` (a blocking send: no one can subscribe to the task before its reply names it) runs the
   * first steps at once, in the transaction that creates the task, which then stores its row once,
   * as they leave it: one savepoint and no UPDATE. Their events are still published in order, after
   * the COMMIT. Should that fail, the task is created alone, as without `runNow`.
   */
  createTask(
    message: Message,
    script: Script,
    activated: boolean,
    withTask?: (taskId: string) => void,
    runNow = false,
  ): TaskRow {
    if (runNow && withTask === undefined && !this.steps && !this.closed) {
      const row = newTaskRow(message, script, activated, true);
      if (this.createAndRun(row)) return row;
    }
    const row = newTaskRow(message, script, activated, withTask === undefined);
    const stored = this.outbox.transaction(() => {
      const event = this.appendCreation(row);
      this.outbox.insertTask(row);
      withTask?.(row.task.id);
      return event;
    });
    this.announce(stored, row.task);
    // Deferred so the caller can subscribe to the task before its first transition (every caller
    // subscribes in the same synchronous stretch, and a stream's snapshot shows the task as created).
    // A microtask, not a later turn: the first steps then join the batch that creates the task
    // (outbox.ts), one COMMIT where there were two, and a blocking send is answered on the turn it arrived.
    queueMicrotask(() => this.advance(row.task.id));
    return row;
  }

  /** The new task's first history message and its snapshot event; the row then holds no history,
   * like a row read back (views read it from the outbox). */
  private appendCreation(row: TaskRow): StoredEvent {
    const { task } = row;
    const first = task.history[0];
    this.outbox.appendHistory(row, first);
    // A copy: the event is published after the commit, and must show the task as it was created.
    const event = this.outbox.appendEvent(row, { task: { ...task, history: [first], artifacts: [] } });
    task.history = [];
    return event;
  }

  /** createTask with `runNow`; false when its transaction failed (nothing of it is stored). */
  private createAndRun(row: TaskRow): boolean {
    try {
      this.runBatch(row, () => this.appendCreation(row));
      return true;
    } catch (err) {
      logUnexpected(`the first steps of task ${row.task.id}`, err);
      return false;
    }
  }

  /** Runs script steps until the task waits (prompt, work) or ends, in one transaction (stepBatch.ts). */
  advance(taskId: string): void {
    if (this.closed) return;
    const row = this.outbox.getTask(taskId);
    if (!row) return;
    if (this.steps) return this.runSteps(row);
    this.runBatch(row);
  }

  /** The row's steps in one transaction (stepBatch.ts), after `first` (the task's creation) when given. */
  private runBatch(row: TaskRow, first?: () => StoredEvent): void {
    StepBatch.run(
      this.outbox,
      row,
      (batch) => (this.steps = batch),
      () => this.runSteps(row),
      (stored, asOf) => this.announce(stored, asOf),
      first,
    );
  }

  private runSteps(row: TaskRow): void {
    const taskId = row.task.id;
    const script = row.script as Script;
    for (;;) {
      const state = row.task.status.state;
      if (TERMINAL_STATES.has(state) || state === 'TASK_STATE_INPUT_REQUIRED') return;
      const step = script.steps[row.step];
      if (!step) return this.acceptance.finish(row);
      if (state === 'TASK_STATE_SUBMITTED' && !('fail' in step) && !('reject' in step) && !script.skipWorking) {
        this.setStatus(row, 'TASK_STATE_WORKING');
      }
      if ('prompt' in step) return this.prompts.emit(row, step.prompt);
      if ('work' in step) {
        const waitingAt = row.step;
        this.later(step.work.ms, () => {
          const current = this.outbox.getTask(taskId);
          if (!current || current.step !== waitingAt || TERMINAL_STATES.has(current.task.status.state)) return;
          current.step += 1;
          this.outbox.updateTask(current);
          this.advance(taskId);
        });
        return;
      }
      row.step += 1;
      if ('artifact' in step) {
        if (this.acceptance.defersArtifacts(row)) this.outbox.updateTask(row);
        else this.artifacts.emit(row, step.artifact);
      } else if ('complete' in step) return this.acceptance.finish(row, step.complete.text);
      else if ('fail' in step) return void this.setStatus(row, 'TASK_STATE_FAILED', step.fail.reason);
      else if ('reject' in step) return void this.setStatus(row, 'TASK_STATE_REJECTED', step.reject.reason);
    }
  }

  cancel(taskId: string): TaskRow {
    const row = this.getRow(taskId);
    if (TERMINAL_STATES.has(row.task.status.state)) {
      throw new A2AError(A2A_TASK_NOT_CANCELABLE, `task ${taskId} is ${row.task.status.state} and cannot be canceled`);
    }
    this.setStatus(row, 'TASK_STATE_CANCELED', undefined, undefined, () => {
      this.outbox.prompts.closeOpen(taskId);
      this.outbox.gates.settle(taskId, 'canceled');
    });
    return row;
  }

  /** Resolves with the task once it is terminal or interrupted (or after the blocking bound), and
   * what settled it is committed (a gRPC reply has no commit hold); rejects if that COMMIT fails. */
  settled(taskId: string): Promise<Task> {
    const row = this.getRow(taskId);
    if (!isSettled(row.task.status.state))
      return new Promise((resolve) => void new SettleWait(this, taskId, BLOCKING_WAIT_MS, resolve));
    if (!this.outbox.uncommitted) return Promise.resolve(row.task);
    return new Promise((resolve, reject) =>
      this.outbox.afterCommit((failed) => (failed ? reject(failed) : resolve(row.task))),
    );
  }

  /** After a restart: resume tasks that were mid-script and re-arm deadlines. */
  recover(): void {
    for (const row of this.outbox.tasksInStates(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING'])) {
      setImmediate(() => this.advance(row.task.id));
    }
    for (const prompt of this.outbox.prompts.pendingDeadlines()) this.prompts.scheduleDeadline(prompt);
    this.acceptance.recover();
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
