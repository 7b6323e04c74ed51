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
import { TransportError, isReachFailure, watchTask, type A2AClient } from '../client/index.ts';
import { UNREACHED } from './reachedAgent.ts';
import type { TaskState } from '../protocol/a2aTypes.ts';
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
  const replied = outcome.result && 'task' in outcome.result ? outcome.result.task : undefined;
  if (replied && replied.status.state !== INPUT_REQUIRED)
    return { answeredAt, resumedAt: outcome.startedAt + outcome.latencyMs };

  const seen = await watchTask(client, prompt.taskId, (s) => s.status.state !== INPUT_REQUIRED, {
    method: 'stream',
    deadline: answeredAt + timeoutMs,
    signal,
    pollIntervalMs: POLL_INTERVAL_MS,
    since: answeredAt,
    awaited: 'the resume',
    headers: 'transport',
  }).catch(transportFailure);
  if (seen.reached) {
    const resolution = seen.pollResolutionMs === undefined ? {} : { pollResolutionMs: seen.pollResolutionMs };
    return { answeredAt, resumedAt: seen.seenAt!, ...resolution };
  }
  if (seen.via === 'stream')
    throw new RoundTripFailure(
      'resume not observed',
      `the task stayed in ${seen.status?.state ?? INPUT_REQUIRED} after an accepted answer: ${seen.missed}`,
    );
  // Why the resume was polled instead: the subscription refused (however framed) or ended early.
  const polled = seen.refused
    ? `the subscription was refused: ${seen.refused.code} ${seen.refused.message}`
    : seen.fallback;
  throw new RoundTripFailure(
    'resume not observed',
    `the task was still ${seen.status?.state ?? 'unknown'} ${timeoutMs} ms after an accepted answer ` +
      `(polled: ${polled})`,
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
