// One whole acceptance-criteria round trip as an open-model iteration, beside the HITL one
// (hitlRoundTrip.ts) and under the same contract: send a task that activates the extension →
// its artifacts → the gate pending (INPUT_REQUIRED with `{EXT}/pendingAcceptance: true`) → an
// accept decision → the terminal state observed. A round trip that cannot get there throws a
// RoundTripFailure whose `kind` names the phase (the executor counts by it), so an agent that
// completes without waiting fails every round trip by name ('not pending'), never silently.
//
// Acceptance latency is timed from the moment the round trip means to send the decision (taken
// just before the call, so the client's own queueing counts, as the open model wants) to the
// moment the terminal state is observed on a subscription opened, and confirmed live by its first
// event, BEFORE the decision goes out: the resume-latency method (watchTask with the decision as its
// act, as rig/engine/kit/resumeObserver.ts does with the answer), not the decision reply's arrival,
// so an agent that replies first and ends the task later is timed to the end it really reached.
// When the agent refuses the subscription (or its stream ends early) the task is polled with
// GetTask instead, bounded by the same timeout. This costs a subscription and an SSE stream per
// round trip; the figure is worth it.
import { userMessage, watchTask, type A2AClient, type Watched } from '../client/index.ts';
import { TERMINAL_STATES, type Task, type TaskState } from '../protocol/a2aTypes.ts';
import { ACCEPTANCE_URI } from '../protocol/acceptance.ts';
import { SCRIPT_KEY } from '../protocol/rigScript.ts';
import type { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import { RoundTripFailure, transportFailure } from './hitlRoundTrip.ts';
import type { Iteration } from './openModelExecutor.ts';

/** The a2a-rig script of a round trip (reference agent): one artifact, then `complete` (where the gate parks). */
export const ACCEPTANCE_ROUND_TRIP_STEPS: readonly unknown[] = [
  { artifact: { name: 'result', text: 'a2a-rig load: the output to accept' } },
  { complete: {} },
];

/**
 * The criteria every round trip sends: the client decides, and a gate the rig never decides (a
 * round trip that failed after the send) ends at the agent within a minute instead of its default
 * day, so a long load does not leave the agent holding gates.
 */
export const ACCEPTANCE_ROUND_TRIP_CRITERIA = {
  description: 'a2a-rig load round trip',
  evaluator: 'client',
  acceptanceTimeoutSeconds: 60,
} as const;

export interface AcceptanceRoundTripOptions {
  client: A2AClient;
  /**
   * The agent follows a2a-rig scripts (the reference agent): send ACCEPTANCE_ROUND_TRIP_STEPS; else
   * a plain text message.
   */
  scripts: boolean;
  /**
   * The script's steps for agents that follow scripts (default ACCEPTANCE_ROUND_TRIP_STEPS; e.g. a
   * `work` step first to model the agent's work).
   */
  steps?: readonly unknown[];
  /**
   * Send the creating message non-blocking (v1.0 returnImmediately, v0.3 blocking: false): the reply
   * shows the task WORKING and the round trip watches it park on a subscription (as it must for an
   * agent that returns early anyway). Default false.
   */
  returnImmediately?: boolean;
  /**
   * How long to wait for the pending gate after the send, and for the terminal state after the
   * decision (default 10 s each).
   */
  timeoutMs?: number;
  /** Intended start → pending gate observed (artifacts in hand). */
  pendingLatency?: LatencyHistogram;
  /** Decision about to be sent → terminal state observed: the extension's acceptance latency. */
  acceptanceLatency?: LatencyHistogram;
}

const INPUT_REQUIRED: TaskState = 'TASK_STATE_INPUT_REQUIRED';
const POLL_INTERVAL_MS = 5;
/**
 * How long to wait for the subscription's first event before deciding anyway: it only confirms the
 * stream is live (an open stream without a snapshot still carries the end), and every ms of it
 * lengthens the round trip, never the acceptance latency.
 */
const FIRST_EVENT_WAIT_MS = 1_000;

const isTerminal = (s: TaskState | undefined): boolean => s !== undefined && TERMINAL_STATES.has(s);

interface PendingGate {
  taskId: string;
  contextId: string;
}

/** Why a task is not a pending gate with its artifacts, as a failure; undefined when it is one. */
function notPending(client: A2AClient, task: Task, artifactsSeen: boolean): RoundTripFailure | undefined {
  const state = task.status.state;
  if (!client.acceptance.isPending(task)) {
    const text = task.status.message?.parts.find((p) => p.text)?.text;
    const what =
      state === INPUT_REQUIRED
        ? 'INPUT_REQUIRED without the pendingAcceptance flag'
        : `${state} without a pending acceptance`;
    return new RoundTripFailure('not pending', `the task reached ${what}${text ? `: ${text.slice(0, 200)}` : ''}`);
  }
  if (!artifactsSeen && task.artifacts.length === 0)
    return new RoundTripFailure('no artifacts', 'the task is pending acceptance without having emitted an artifact');
  return undefined;
}

/** The creating send: the task it created, or a RoundTripFailure saying why there is none to watch. */
async function sendGated(options: AcceptanceRoundTripOptions, signal: AbortSignal): Promise<Task> {
  const { client } = options;
  const message = options.scripts
    ? userMessage({ data: { [SCRIPT_KEY]: { steps: options.steps ?? ACCEPTANCE_ROUND_TRIP_STEPS } } })
    : userMessage({
        text: 'a2a-rig: produce an artifact, then wait for my acceptance (acceptance-criteria extension)',
      });
  // Only this extension is activated: an agent that would otherwise open a hitl-prompt/v1 prompt
  // first (the two compose) must go straight to the gate this round trip measures.
  const sent = await client.acceptance
    .send(message, {
      signal,
      extensions: [ACCEPTANCE_URI],
      criteria: ACCEPTANCE_ROUND_TRIP_CRITERIA,
      ...(options.returnImmediately ? { returnImmediately: true } : {}),
    })
    .catch(transportFailure);
  if (!sent.ok)
    throw new RoundTripFailure(
      'send refused',
      `${sent.error.code} ${sent.error.message.slice(0, 200)}` +
        (sent.refusal?.reason ? `: ${sent.refusal.reason.slice(0, 200)}` : ''),
    );
  // No echo: the client MUST assume plain WORKING → COMPLETED and MUST NOT wait for a gate.
  if (sent.gate === 'absent')
    throw new RoundTripFailure(
      'no echo',
      'the agent did not echo the acceptance-criteria extension on the creating send: ' +
        'a client must not wait for a gate',
    );
  if (!('task' in sent.value)) throw new RoundTripFailure('no task', 'the agent answered with a Message, not a Task');
  return sent.value.task;
}

/** The creating send, then (for an agent that parks asynchronously) a bounded wait for the gate. */
async function openGate(
  options: AcceptanceRoundTripOptions,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<PendingGate> {
  const { client } = options;
  const task = await sendGated(options, signal);
  const gate = { taskId: task.id, contextId: task.contextId };
  const settled = (s: TaskState) => s === INPUT_REQUIRED || isTerminal(s);
  if (settled(task.status.state)) {
    const failure = notPending(client, task, false);
    if (failure) throw failure;
    return gate;
  }
  // Still working: watch it park (or end), counting artifacts as they stream; GetTask carries them
  // with the state when there is no stream to watch.
  const seen = await watchTask(client, task.id, (s) => settled(s.status.state), {
    method: 'stream',
    deadline: performance.now() + timeoutMs,
    signal,
    pollIntervalMs: POLL_INTERVAL_MS,
    headers: 'transport',
  }).catch(transportFailure);
  if (!seen.reached)
    throw new RoundTripFailure(
      'pending not observed',
      seen.via === 'stream'
        ? `the task stayed ${seen.status?.state ?? task.status.state} for ${timeoutMs} ms after the send`
        : `the task did not reach a pending acceptance within ${timeoutMs} ms of the send`,
    );
  const failure =
    seen.via === 'poll'
      ? notPending(client, seen.task!, false)
      : notPending(client, { ...task, status: seen.status!, artifacts: seen.task?.artifacts ?? [] }, streamed(seen));
  if (failure) throw failure;
  return gate;
}

/** Whether a stream watch saw an artifact before the gate: an artifact update, or a snapshot carrying one. */
function streamed(seen: Watched): boolean {
  return seen.events.some(
    ({ event }) => 'artifactUpdate' in event || ('task' in event && event.task.artifacts.length > 0),
  );
}

/** Decides accept; the moment just before it was sent, or a RoundTripFailure when it was not applied. */
async function decideAccept(client: A2AClient, gate: PendingGate, signal: AbortSignal): Promise<number> {
  const decidedAt = performance.now();
  const outcome = await client.acceptance.decide(
    gate.taskId,
    gate.contextId,
    { action: 'accept' },
    { signal, feedback: 'a2a-rig load: accepted' },
  );
  if (outcome.kind !== 'applied') {
    const why =
      outcome.reason ??
      outcome.error?.reason ??
      `HTTP ${outcome.httpStatus}${outcome.rpcCode !== undefined ? `, code ${outcome.rpcCode}` : ''}`;
    throw new RoundTripFailure(`decision ${outcome.kind}`, `the accept decision was not applied: ${why}`);
  }
  return decidedAt;
}

/** Accept, and time decision → terminal state observed (subscription first; GetTask when there is no stream). */
async function acceptObserved(
  client: A2AClient,
  gate: PendingGate,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ decidedAt: number; endedAt: number }> {
  let decidedAt: number | undefined;
  // The decision's own failures are passed on as they are; only the watch's exchanges are transport failures.
  let decisionFailure: unknown;
  const accept = () =>
    decideAccept(client, gate, signal).then(
      (at) => (decidedAt = at),
      (err: unknown) => {
        throw (decisionFailure = err);
      },
    );
  const seen = await watchTask(client, gate.taskId, (s) => isTerminal(s.status.state), {
    method: 'stream',
    deadline: performance.now() + Math.min(timeoutMs, FIRST_EVENT_WAIT_MS),
    signal,
    pollIntervalMs: POLL_INTERVAL_MS,
    awaited: 'the terminal state',
    act: { run: accept, timeoutMs },
  }).catch((err: unknown) => (err === decisionFailure ? Promise.reject(err) : transportFailure(err)));
  if (seen.reached) {
    const state = seen.status!.state;
    if (state !== 'TASK_STATE_COMPLETED')
      throw new RoundTripFailure('not completed', `an accepted task ended ${state}, not COMPLETED`);
    return { decidedAt: decidedAt!, endedAt: seen.seenAt! };
  }
  if (seen.via === 'stream')
    throw new RoundTripFailure(
      'terminal not observed',
      `the task stayed ${seen.status?.state ?? INPUT_REQUIRED} ${timeoutMs} ms after an applied accept`,
    );
  const polled = seen.refused
    ? `the subscription was refused: ${seen.refused.code} ${seen.refused.message.slice(0, 200)}`
    : seen.fallback;
  throw new RoundTripFailure(
    'terminal not observed',
    `the task was still ${seen.status?.state ?? 'unknown'} ${timeoutMs} ms after an applied accept (polled: ${polled})`,
  );
}

/** The iteration: one acceptance round trip per call, through `client`; ends when the terminal state was observed. */
export function acceptanceRoundTrip(options: AcceptanceRoundTripOptions): Iteration {
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async ({ intendedAt, signal }) => {
    const gate = await openGate(options, signal, timeoutMs);
    const pendingAt = performance.now();
    options.pendingLatency?.recordMs(pendingAt - intendedAt, pendingAt);
    const { decidedAt, endedAt } = await acceptObserved(options.client, gate, signal, timeoutMs);
    options.acceptanceLatency?.recordMs(endedAt - decidedAt, endedAt);
    return { endedAt };
  };
}
