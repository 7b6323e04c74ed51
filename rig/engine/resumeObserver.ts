// Sends an answer and observes the task leave INPUT_REQUIRED on a stream, timing it from just before
// the answer was sent (monotonic clock) to the moment the status event was received. The stream is
// a subscription opened, and confirmed live by its snapshot, before the answer goes out; agents
// without streaming are polled with GetTask instead (bounded).
import type { TaskState } from '../protocol/a2aTypes.ts';
import type { A2AClient, AnswerOutcome, ReceivedEvent } from '../client/index.ts';

export interface ObservedAnswer {
  outcome: AnswerOutcome;
  /** Answer sent → leaving INPUT_REQUIRED observed, in ms; undefined if not seen in time. */
  resumedAfterMs: number | undefined;
  /** The first state seen after INPUT_REQUIRED (or INPUT_REQUIRED if it never left). */
  stateAfter: TaskState | undefined;
  observedOn: 'stream' | 'poll';
}

const POLL_INTERVAL_MS = 5;

function stateOf(e: ReceivedEvent): TaskState | undefined {
  if ('statusUpdate' in e.event) return e.event.statusUpdate.status.state;
  if ('task' in e.event) return e.event.task.status.state;
  return undefined;
}

export async function answerObserved(
  client: A2AClient,
  taskId: string,
  promptId: string,
  payload: unknown,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ObservedAnswer> {
  const sub = await client.subscribe(taskId, { signal: options.signal });
  if (sub.ok) {
    const { stream } = sub;
    try {
      await stream.waitFor(() => true, options.timeoutMs);
      const outcome = await client.answer(taskId, promptId, payload, { signal: options.signal });
      if (outcome.kind !== 'accepted') return { outcome, resumedAfterMs: undefined, stateAfter: stream.lastState, observedOn: 'stream' };
      try {
        const left = await stream.waitFor((e) => {
          const s = stateOf(e);
          return s !== undefined && s !== 'TASK_STATE_INPUT_REQUIRED' && e.receivedAt >= outcome.startedAt;
        }, options.timeoutMs);
        return { outcome, resumedAfterMs: left.receivedAt - outcome.startedAt, stateAfter: stateOf(left), observedOn: 'stream' };
      } catch {
        return { outcome, resumedAfterMs: undefined, stateAfter: stream.lastState, observedOn: 'stream' };
      }
    } finally {
      await stream.close();
    }
  }
  const outcome = await client.answer(taskId, promptId, payload, { signal: options.signal });
  if (outcome.kind !== 'accepted') return { outcome, resumedAfterMs: undefined, stateAfter: undefined, observedOn: 'poll' };
  const deadline = outcome.startedAt + options.timeoutMs;
  let state: TaskState | undefined;
  while (performance.now() < deadline && !options.signal?.aborted) {
    const got = await client.getTask(taskId, { signal: options.signal });
    if (got.ok) {
      state = got.value.status.state;
      if (state !== 'TASK_STATE_INPUT_REQUIRED') return { outcome, resumedAfterMs: got.meta.completedAt - outcome.startedAt, stateAfter: state, observedOn: 'poll' };
    }
    await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
  }
  return { outcome, resumedAfterMs: undefined, stateAfter: state, observedOn: 'poll' };
}
