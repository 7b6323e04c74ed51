// One whole human-in-the-loop round trip as an open-model iteration: send → prompt observed →
// answer → resumed observed. The latency the executor records runs from the iteration's intended
// start to the moment the resume was observed; the phases are recorded beside it.
//
// How the resume is observed, and why not with resumeObserver's subscription-first method: an
// accepted answer's reply carries the task, and when that task is already out of INPUT_REQUIRED the
// client has observed the resume at the reply's arrival (the agent cannot have resumed later than
// that, so the figure is conservative). Only when the reply still shows INPUT_REQUIRED (an agent
// that resumes asynchronously, or slowly) does the round trip subscribe and wait for the state to
// change, which a snapshot already showing it also satisfies; an agent that refuses the subscription
// (e.g. the task is already terminal) is polled with GetTask. This spares a subscription request and
// an SSE stream per round trip for agents that resume before replying, so the rig's own cost does not
// cap the rate it can offer on a two-core box. The resume-latency scenario keeps the stricter method.
import { TransportError, describeEnd, isReachFailure, type A2AClient } from '../client/index.ts';
import { UNREACHED } from './reachedAgent.ts';
import type { TaskState } from '../protocol/a2aTypes.ts';
import { statusOfEvent } from '../protocol/wireInbound.ts';
import type { LatencyHistogram } from '../metrics/latencyHistogram.ts';
import type { Iteration } from './openModelExecutor.ts';

/** A prompt the round trip can answer: the task, its prompt_id and a payload valid for its schema. */
export interface OpenedPrompt {
  taskId: string;
  promptId: string;
  payload: unknown;
}

/** Sends a new task and returns its open prompt, or throws a RoundTripFailure saying what happened instead. */
export type PromptOpener = (signal: AbortSignal) => Promise<OpenedPrompt>;

/** A round trip that did not complete; `kind` names the phase and outcome (the executor counts by it). */
export class RoundTripFailure extends Error {
  override name = 'RoundTripFailure';
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

export interface RoundTripOptions {
  client: A2AClient;
  open: PromptOpener;
  /** How long to wait for the resume after an accepted answer (default 10 s). */
  resumeTimeoutMs?: number;
  /** Intended start → prompt observed. */
  promptLatency?: LatencyHistogram;
  /** Answer sent → resume observed (the spec's resume latency, as a client sees it). */
  resumeLatency?: LatencyHistogram;
}

const INPUT_REQUIRED: TaskState = 'TASK_STATE_INPUT_REQUIRED';
const POLL_INTERVAL_MS = 5;

/** A transport failure as a round trip's; one that never got a connection counts as UNREACHED (the rig's reach). */
export function transportFailure(err: unknown): never {
  if (isReachFailure(err)) throw new RoundTripFailure(UNREACHED, err.message);
  if (err instanceof TransportError) throw new RoundTripFailure(`transport ${err.failure}`, err.message);
  throw err;
}

/** Answer sent → resume observed, as performance.now() times. */
async function answerAndObserve(
  client: A2AClient,
  prompt: OpenedPrompt,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ answeredAt: number; resumedAt: number; pollResolutionMs?: number }> {
  const outcome = await client.answer(prompt.taskId, prompt.promptId, prompt.payload, { signal });
  if (outcome.kind !== 'accepted') {
    const why =
      outcome.reason ?? `HTTP ${outcome.httpStatus}${outcome.rpcCode !== undefined ? `, code ${outcome.rpcCode}` : ''}`;
    throw new RoundTripFailure(`answer ${outcome.kind}`, `a valid answer was not accepted: ${why}`);
  }
  const answeredAt = outcome.startedAt;
  const deadline = answeredAt + timeoutMs;
  const replied = outcome.result && 'task' in outcome.result ? outcome.result.task : undefined;
  if (replied && replied.status.state !== INPUT_REQUIRED)
    return { answeredAt, resumedAt: outcome.startedAt + outcome.latencyMs };

  const sub = await client.subscribe(prompt.taskId, { signal }).catch(transportFailure);
  // Why the resume is polled instead: the subscription refused (however framed) or ended early.
  let polled = sub.ok ? '' : `the subscription was refused: ${sub.error.code} ${sub.error.message}`;
  if (sub.ok) {
    const { stream } = sub;
    const stop = () => void stream.close();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const left = await stream.waitFor(
        (e) => {
          const state = statusOfEvent(e.event)?.state;
          return state !== undefined && state !== INPUT_REQUIRED;
        },
        Math.max(1, deadline - performance.now()),
      );
      return { answeredAt, resumedAt: left.receivedAt };
    } catch (err) {
      const end = stream.end;
      if (end === undefined || end.reason === 'closed' || signal.aborted) {
        throw new RoundTripFailure(
          'resume not observed',
          `the task stayed in ${stream.lastState ?? INPUT_REQUIRED} after an accepted answer: ` +
            (err as Error).message,
        );
      }
      polled = `the subscription ended before the resume (${describeEnd(end)})`;
    } finally {
      signal.removeEventListener('abort', stop);
      await stream.close();
    }
  }
  let state: TaskState | undefined;
  // The resume happened after the last poll that still saw INPUT_REQUIRED was sent (resumeObserver.ts).
  let stillParkedAt = answeredAt;
  while (performance.now() < deadline && !signal.aborted) {
    const sentAt = performance.now();
    const got = await client.getTask(prompt.taskId, { signal }).catch(transportFailure);
    if (got.ok && (state = got.value.status.state) !== INPUT_REQUIRED)
      return { answeredAt, resumedAt: got.meta.completedAt, pollResolutionMs: got.meta.completedAt - stillParkedAt };
    if (got.ok) stillParkedAt = sentAt;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  throw new RoundTripFailure(
    'resume not observed',
    `the task was still ${state ?? 'unknown'} ${timeoutMs} ms after an accepted answer (polled: ${polled})`,
  );
}

/** The iteration: one round trip per call, through `client`. */
export function hitlRoundTrip(options: RoundTripOptions): Iteration {
  const timeoutMs = options.resumeTimeoutMs ?? 10_000;
  return async ({ intendedAt, signal }) => {
    const prompt = await options.open(signal).catch(transportFailure);
    const promptAt = performance.now();
    options.promptLatency?.recordMs(promptAt - intendedAt, promptAt);
    const seen = await answerAndObserve(options.client, prompt, signal, timeoutMs).catch(transportFailure);
    const { answeredAt, resumedAt, pollResolutionMs } = seen;
    options.resumeLatency?.recordMs(resumedAt - answeredAt, resumedAt, pollResolutionMs);
    return { endedAt: resumedAt, ...(pollResolutionMs === undefined ? {} : { pollResolutionMs }) };
  };
}
