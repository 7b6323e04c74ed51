// Sends an answer and observes the task leave INPUT_REQUIRED on a stream, timing it from just before
// the answer was sent (monotonic clock) to the moment the status event was received. The stream is
// a subscription opened, and confirmed live by its first event, before the answer goes out. When
// there is no stream to watch (the agent refuses the subscription, however framed: a plain JSON-RPC
// error, or an error as the first frame of an event stream as a2a-sdk 0.3.x sends for a parked
// task; or the stream ends before the task resumes), the task is polled with GetTask instead
// (bounded), and `fallback` says why, quoting the agent's error code.
import type { TaskState } from '../../protocol/a2aTypes.ts';
import { watchTask, type A2AClient, type AnswerOutcome } from '../../client/index.ts';
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
  let outcome: AnswerOutcome | undefined;
  const answer = async () => {
    outcome = await client.answer(taskId, promptId, payload, { signal: options.signal });
    return outcome.kind === 'accepted' ? outcome.startedAt : undefined;
  };
  // The first-event wait counts from the request: an agent that sends its headers only with the first
  // event sends none before the resume, and its stream is handed over open and silent (watchTask.ts).
  const seen = await watchTask(client, taskId, (s) => s.status.state !== 'TASK_STATE_INPUT_REQUIRED', {
    method: 'stream',
    deadline: performance.now() + Math.min(options.timeoutMs, FIRST_EVENT_WAIT_MS),
    signal: options.signal,
    pollIntervalMs: POLL_INTERVAL_MS,
    awaited: 'the resume',
    act: { run: answer, timeoutMs: options.timeoutMs },
  });
  const observed = {
    outcome: outcome!,
    resumedAfterMs: seen.reached ? seen.seenAt! - outcome!.startedAt : undefined,
    stateAfter: seen.status?.state,
    observedOn: seen.via,
  };
  if (seen.fallback === undefined) return observed;
  const resolution = seen.pollResolutionMs === undefined ? {} : { pollResolutionMs: seen.pollResolutionMs };
  return { ...observed, fallback: seen.fallback, ...resolution };
}
