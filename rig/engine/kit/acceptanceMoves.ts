// What the acceptance scenarios (scenarios/acceptance/) share: open a gated task and wait for its
// pending state, watch a task until it settles, read its artifacts and history. One API for every
// acceptance scenario, through the ScenarioContext's client only, so the scenarios run against any
// agent by URL. The creating message always carries an a2a-rig script with per-attempt artifacts
// (`attempts`, named `attempt-1`, `attempt-2`, ...): the reference agent follows it, an agent that
// does not follow scripts ignores it and emits whatever it emits.
import { randomUUID } from 'node:crypto';
import { METHOD_NAMES, TERMINAL_STATES, type Task } from '../../protocol/a2aTypes.ts';
import { SCRIPT_KEY } from '../../protocol/rigScript.ts';
import { ACCEPTANCE_URI, type Decision } from '../../protocol/acceptance.ts';
import { watchTask, type AcceptanceNeeds, type AcceptanceSendOptions, type A2AClient } from '../../client/index.ts';
import type { ScenarioContext } from './scenarioContextInterface.ts';
import type { GateOpening } from './gateOpening.ts';

/** How long a gated task may take to park, or to settle after a decision, before a scenario gives up on it. */
export const SETTLE_MS = 10_000;
/** GetTask polling interval while a scenario waits for a state it cannot subscribe to portably. */
const POLL_MS = 25;

/** The artifact name attempt `n` (1-based) of the rig's script emits. */
export const attemptName = (n: number): string => `attempt-${n}`;

/** A creating message: the script's artifacts per attempt (one named artifact each), then `complete`. */
export function gatedScript(attempts = 3, contextId?: string) {
  const perAttempt = Array.from({ length: attempts }, (_, i) => [
    { artifact: { name: attemptName(i + 1), data: { attempt: i + 1, draft: i === 0 } } },
  ]);
  return {
    parts: [{ data: { [SCRIPT_KEY]: { steps: [{ complete: {} }], attempts: perAttempt } } }],
    ...(contextId ? { contextId } : {}),
  };
}

export type { GateOpening } from './gateOpening.ts';

/** Skips the scenario (with why) unless the agent declares the extension as the scenario needs it. */
export function requireGate(ctx: ScenarioContext, needs: AcceptanceNeeds = {}): void {
  const why = ctx.client.acceptance.skipReason(needs);
  if (why) ctx.skip(why);
}

/** Sends a gated creating request and waits (bounded) until the task parks or settles. */
export async function openGate(
  ctx: ScenarioContext,
  options: AcceptanceSendOptions & { attempts?: number; contextId?: string; client?: A2AClient } = {},
): Promise<GateOpening> {
  const { attempts, contextId, client = ctx.client, ...send } = options;
  const started = performance.now();
  // Only this extension is activated (unless the caller says otherwise): an agent that also speaks
  // hitl-prompt/v1 may ask a prompt first when that is activated too, which is another scenario's business.
  const sent = await client.acceptance.send(gatedScript(attempts, contextId), {
    signal: ctx.signal,
    extensions: [ACCEPTANCE_URI],
    ...send,
  });
  const latencyMs = performance.now() - started;
  const echoed = sent.gate === 'active';
  if (!sent.ok)
    return {
      kind: 'refused',
      refusal: sent.refusal,
      code: sent.error.code,
      message: sent.error.message,
      httpStatus: sent.meta.httpStatus,
      latencyMs,
    };
  if (!('task' in sent.value)) return { kind: 'message', echoed, latencyMs };
  let task = sent.value.task;
  // Without the echo the client MUST NOT wait for a gate: take the reply as it is, unless it is still running.
  if (
    !client.acceptance.isPending(task) &&
    !TERMINAL_STATES.has(task.status.state) &&
    task.status.state !== 'TASK_STATE_INPUT_REQUIRED'
  ) {
    task =
      (await settle(
        ctx,
        task.id,
        (t) => t.status.state !== 'TASK_STATE_WORKING' && t.status.state !== 'TASK_STATE_SUBMITTED',
        { client },
      )) ?? task;
  }
  return client.acceptance.isPending(task)
    ? { kind: 'pending', task, echoed, latencyMs }
    : { kind: 'not-pending', task, echoed, latencyMs };
}

/** Like `openGate`, but anything other than a pending task fails the named check and returns undefined. */
export async function pendingGate(
  ctx: ScenarioContext,
  check: string,
  options: Parameters<typeof openGate>[1] = {},
): Promise<Task | undefined> {
  const opened = await openGate(ctx, options);
  if (opened.kind === 'pending') return opened.task;
  ctx.check(check, false, describeOpening(opened));
  return undefined;
}

export function describeOpening(opened: GateOpening): string {
  switch (opened.kind) {
    case 'pending':
      return `pending acceptance (${opened.task.id})`;
    case 'refused': {
      const reason = opened.refusal?.reason ? ` (${opened.refusal.reason})` : '';
      return `refused: JSON-RPC ${opened.code} ${opened.message}${reason}, HTTP ${opened.httpStatus}`;
    }
    case 'not-pending': {
      const state = opened.task.status.state;
      const unflagged = state === 'TASK_STATE_INPUT_REQUIRED' ? ' without the pendingAcceptance flag' : '';
      return `the task is ${state}${unflagged}, not pending acceptance`;
    }
    case 'message':
      return 'the agent answered with a Message, not a Task';
  }
}

/**
 * Reads the task with GetTask until `until` holds (or SETTLE_MS passes): portable where a
 * subscription is not (some SDKs refuse to resubscribe to a parked task). Undefined if it never did.
 */
export async function settle(
  ctx: ScenarioContext,
  taskId: string,
  until: (task: Task) => boolean,
  options: { timeoutMs?: number; client?: A2AClient } = {},
): Promise<Task | undefined> {
  const seen = await watchTask(options.client ?? ctx.client, taskId, (s) => s.task !== undefined && until(s.task), {
    method: 'poll',
    deadline: performance.now() + Math.min(options.timeoutMs ?? SETTLE_MS, ctx.remainingMs()),
    signal: ctx.signal,
    pollIntervalMs: POLL_MS,
  });
  return seen.reached ? seen.task : undefined;
}

/** Settled again after a decision: pending acceptance, or a terminal state. */
export function pendingOrTerminal(client: A2AClient): (task: Task) => boolean {
  return (task) => client.acceptance.isPending(task) || TERMINAL_STATES.has(task.status.state);
}

/**
 * Sends one decision on a pending task and, when it was applied, waits for the task to settle
 * again (pending or terminal). `detail` reads "applied, then TASK_STATE_FAILED" for a check.
 */
export async function decideAndSettle(
  ctx: ScenarioContext,
  task: Task,
  decision: Decision,
  feedback: string,
): Promise<{ after: Task | undefined; detail: string }> {
  const outcome = await ctx.client.acceptance.decide(task.id, task.contextId, decision, {
    feedback,
    signal: ctx.signal,
  });
  const after = outcome.kind === 'applied' ? await settle(ctx, task.id, pendingOrTerminal(ctx.client)) : undefined;
  return {
    after,
    detail: `${outcome.kind}${outcome.reason ? ` (${outcome.reason})` : ''}, then ${stateOf(ctx.client, after)}`,
  };
}

export function isTerminal(task: Task | undefined): boolean {
  return task !== undefined && TERMINAL_STATES.has(task.status.state);
}

/** The state and, when pending, the flag, for a check's detail. */
export function stateOf(client: A2AClient, task: Task | undefined): string {
  if (!task) return 'not settled';
  return client.acceptance.isPending(task) ? 'pending acceptance' : task.status.state;
}

export function artifactNames(task: Task): string[] {
  return task.artifacts.map((a) => a.name ?? '(unnamed)');
}

/** Does a history message carry this text verbatim in a text part? */
export function historyHasText(task: Task, text: string): boolean {
  return task.history.some((m) => m.parts.some((p) => p.text === text));
}

/** A context id no task has yet, so a listing of it shows only what this scenario created. */
export const freshContextId = (): string => randomUUID();

/**
 * How many tasks the agent lists in a context (ListTasks filtered by contextId); undefined when the
 * agent offers no ListTasks (A2A 0.3 has none), with why.
 */
export async function tasksInContext(
  client: A2AClient,
  contextId: string,
  signal?: AbortSignal,
): Promise<{ count: number } | { unsupported: string }> {
  const method = METHOD_NAMES[client.generation].list;
  if (!method) return { unsupported: `A2A ${client.generation} has no ListTasks` };
  try {
    const reply = await client.transport.call(
      client.agent.rpcUrl,
      method,
      { contextId, pageSize: 100 },
      { generation: client.generation, extensions: [] },
      { signal },
    );
    if (!reply.ok) return { unsupported: `${method} answered ${reply.error.code} ${reply.error.message}` };
    const tasks = (reply.result as { tasks?: unknown } | null)?.tasks ?? [];
    return Array.isArray(tasks) ? { count: tasks.length } : { unsupported: `${method} result has no tasks list` };
  } catch (err) {
    return { unsupported: `${method}: ${(err as Error).message}` };
  }
}

/** How long a terminal task's replay may take to arrive and end. */
const REPLAY_WAIT_MS = 5_000;

/**
 * A terminal task's full replay from the agent's replay plane (/events), one letter per event:
 * T task snapshot, W working, A artifact, P pending acceptance, I other input-required, C completed,
 * F failed, S other status. The plane closes the socket after replaying a terminal task, so the
 * shape is complete when it ends; `complete` says whether it did within the bound.
 */
export async function replayShape(
  ctx: ScenarioContext,
  taskId: string,
): Promise<{ shape: string; complete: boolean } | { refused: string }> {
  const socket = await ctx.direct.replay(taskId, { since: 0 }).catch((err: Error) => err);
  if (socket instanceof Error) return { refused: socket.message };
  const complete =
    (await ctx.within(
      socket.ended.then(() => true),
      REPLAY_WAIT_MS,
    )) ?? false;
  await socket.close();
  const letters: Partial<Record<string, string>> = {
    TASK_STATE_WORKING: 'W',
    TASK_STATE_COMPLETED: 'C',
    TASK_STATE_FAILED: 'F',
    TASK_STATE_INPUT_REQUIRED: 'I',
  };
  const shape = socket.events
    .map(({ event }) => {
      if ('artifactUpdate' in event) return 'A';
      if ('task' in event) return 'T';
      if (!('statusUpdate' in event)) return 'S';
      return ctx.direct.acceptance.isPending(event) ? 'P' : (letters[event.statusUpdate.status.state] ?? 'S');
    })
    .join('');
  return { shape, complete };
}
