// Sends an answer and observes the task leave INPUT_REQUIRED on a stream, timing it from just before
// the answer was sent (monotonic clock) to the moment the status event was received. The stream is
// a subscription opened, and confirmed live by its first event, before the answer goes out. When
// there is no stream to watch (the agent refuses the subscription, however framed: a plain JSON-RPC
// error, or an error as the first frame of an event stream as a2a-sdk 0.3.x sends for a parked
// task; or the stream ends before the task resumes), the task is polled with GetTask instead
// (bounded), and `fallback` says why, quoting the agent's error code.
import type { TaskState } from '../../protocol/a2aTypes.ts';
import { describeEnd, type A2AClient, type AnswerOutcome } from '../../client/index.ts';
import { stateOfEvent } from '../../protocol/wireInbound.ts';
import type { LatencyHistogram } from '../../metrics/latencyHistogram.ts';

export interface ObservedAnswer {
  outcome: AnswerOutcome;
  /** Answer sent → leaving INPUT_REQUIRED observed, in ms; undefined if not seen in time. */
  resumedAfterMs: number | undefined;
  /** The first state seen after INPUT_REQUIRED (or INPUT_REQUIRED if it never left). */
  stateAfter: TaskState | undefined;
  observedOn: 'stream' | 'poll';
  /** Why the resume was polled instead of watched on a stream (e.g. "subscription refused: -32001 …"). */
  fallback?: string;
  /**
   * Polled only: how sure resumedAfterMs is, ms: from sending the last GetTask that still saw
   * INPUT_REQUIRED (or the answer, for the first) to the reply that saw the task resumed; the resume
   * happened somewhere in that span.
   */
  pollResolutionMs?: number;
}

/**
 * Records an observed resume in `latency`, as polled (with its resolution) when it was: the one way
 * scenarios record what answerObserved saw, so a polled latency is marked wherever it is shown.
 */
export function recordResume(latency: LatencyHistogram, observed: ObservedAnswer): void {
  if (observed.resumedAfterMs !== undefined)
    latency.recordMs(observed.resumedAfterMs, undefined, observed.pollResolutionMs);
}

const POLL_INTERVAL_MS = 5;
/**
 * How long a new subscription's first event is awaited before the answer goes out. A live stream's
 * snapshot comes right behind its headers; one that has shown nothing by then shows nothing before
 * the resume (an agent that replays nothing, perhaps sending its headers only with its first
 * event), and waiting longer for it would only spend the scenario's budget (cf4: 20 trials).
 */
const FIRST_EVENT_WAIT_MS = 1_000;

type Options = { timeoutMs: number; signal?: AbortSignal };

export async function answerObserved(
  client: A2AClient,
  taskId: string,
  promptId: string,
  payload: unknown,
  options: Options,
): Promise<ObservedAnswer> {
  // The first-event wait counts from the request: an agent that sends its headers only with the first
  // event sends none before the resume, and its stream is handed over open and silent (pendingOpen.ts).
  const firstWaitMs = Math.min(options.timeoutMs, FIRST_EVENT_WAIT_MS);
  const firstBy = performance.now() + firstWaitMs;
  const sub = await client.subscribe(taskId, { signal: options.signal, headerWaitMs: firstWaitMs });
  let fallback: string;
  let outcome: AnswerOutcome | undefined;
  if (sub.ok) {
    const { stream } = sub;
    try {
      let live = true;
      try {
        await stream.waitFor(() => true, Math.max(1, firstBy - performance.now()));
      } catch {
        // No event yet: an open stream may still carry the resume (agents that send no snapshot);
        // an ended one cannot.
        live = stream.end === undefined;
      }
      if (live) {
        outcome = await client.answer(taskId, promptId, payload, { signal: options.signal });
        if (outcome.kind !== 'accepted')
          return { outcome, resumedAfterMs: undefined, stateAfter: stream.lastState, observedOn: 'stream' };
        const answeredAt = outcome.startedAt;
        try {
          const left = await stream.waitFor((e) => {
            const s = stateOfEvent(e.event);
            return s !== undefined && s !== 'TASK_STATE_INPUT_REQUIRED' && e.receivedAt >= answeredAt;
          }, options.timeoutMs);
          return {
            outcome,
            resumedAfterMs: left.receivedAt - answeredAt,
            stateAfter: stateOfEvent(left.event),
            observedOn: 'stream',
          };
        } catch {
          const end = stream.end;
          // Still open at the bound: the task did not resume in time, as the stream shows.
          if (end === undefined)
            return { outcome, resumedAfterMs: undefined, stateAfter: stream.lastState, observedOn: 'stream' };
          fallback = `the subscription ended before the resume (${describeEnd(end)})`;
        }
      } else {
        fallback = `the subscription ended before its first event (${describeEnd(stream.end!)})`;
      }
    } finally {
      await stream.close();
    }
  } else {
    const where = sub.inStream ? ' (as the first frame of an event stream)' : '';
    fallback = `subscription refused: ${sub.error.code} ${sub.error.message}${where}`;
  }
  outcome ??= await client.answer(taskId, promptId, payload, { signal: options.signal });
  if (outcome.kind !== 'accepted')
    return { outcome, resumedAfterMs: undefined, stateAfter: undefined, observedOn: 'poll', fallback };
  return pollResume(client, taskId, outcome, options, fallback);
}

/** GetTask until the task leaves INPUT_REQUIRED, bounded by the timeout counted from the answer. */
async function pollResume(
  client: A2AClient,
  taskId: string,
  outcome: AnswerOutcome,
  options: Options,
  fallback: string,
): Promise<ObservedAnswer> {
  const deadline = outcome.startedAt + options.timeoutMs;
  let state: TaskState | undefined;
  // The resume happened after the last poll that still saw INPUT_REQUIRED was sent.
  let stillParkedAt = outcome.startedAt;
  while (performance.now() < deadline && !options.signal?.aborted) {
    const sentAt = performance.now();
    const got = await client.getTask(taskId, { signal: options.signal });
    if (got.ok) {
      state = got.value.status.state;
      if (state !== 'TASK_STATE_INPUT_REQUIRED')
        return {
          outcome,
          resumedAfterMs: got.meta.completedAt - outcome.startedAt,
          stateAfter: state,
          observedOn: 'poll',
          fallback,
          pollResolutionMs: got.meta.completedAt - stillParkedAt,
        };
      stillParkedAt = sentAt;
    }
    await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
  }
  return { outcome, resumedAfterMs: undefined, stateAfter: state, observedOn: 'poll', fallback };
}
