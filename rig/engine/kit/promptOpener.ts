// Driving a new task into INPUT_REQUIRED, for any agent: with an a2a-rig script when the agent
// follows scripts, with a plain message otherwise; waiting (bounded) for an agent that parks the
// task asynchronously; then the S-2 verdict on the envelope and answers built from its schema.
import type { Task, TaskState } from '../../protocol/a2aTypes.ts';
import { TERMINAL_STATES } from '../../protocol/a2aTypes.ts';
import { SCRIPT_KEY } from '../../protocol/rigScript.ts';
import {
  TransportError,
  userMessage,
  watchTask,
  type A2AClient,
  type AnswerSynthesizer,
  type PromptCheck,
  type SynthesizedAnswers,
} from '../../client/index.ts';

const OPEN_PROMPT_WAIT_MS = 10_000;

export interface OpenPrompt {
  task: Task;
  taskId: string;
  /** The S-2 verdict on the envelope the agent emitted. */
  prompt: PromptCheck;
  /** Payloads built from the emitted response_schema (valid and invalid ones), when possible. */
  answers: SynthesizedAnswers | undefined;
  answersUnavailable?: string;
  /** Extensions the agent echoed on the send that created the task. */
  echoed: string[];
}

/**
 * What became of an attempt to drive a new task into INPUT_REQUIRED, for scenarios that expect the
 * agent may rightly refuse (an oversized or too deeply nested schema): the prompt is open, the
 * task ended or stopped elsewhere (with the text of its status message), it parked without an
 * envelope, the agent answered with a Message, or it refused the request itself.
 */
export type PromptAttempt =
  | { kind: 'open'; open: OpenPrompt }
  /** `fallback`: why the wait polled GetTask instead of watching a stream (the agent's refusal, with its code). */
  | { kind: 'not-parked'; task: Task; statusText: string | undefined; fallback?: string }
  | { kind: 'no-envelope'; task: Task }
  | { kind: 'message' }
  /**
   * A JSON-RPC error, or a refusal at the HTTP level (e.g. 413, or the connection closed, for a body
   * over the agent's limit).
   */
  | { kind: 'refused'; httpStatus: number | undefined; rpcCode: number | undefined; reason: string };

/**
 * The prompt an attempt opened, or why a scenario that needs one cannot run here (a skip reason);
 * throws when the agent refused to start the task, which is an error, not a skip.
 */
export function openedPrompt(attempt: PromptAttempt): OpenPrompt | { skip: string } {
  switch (attempt.kind) {
    case 'open':
      return attempt.open;
    case 'refused':
      throw new Error(`the agent refused to start a task: ${attempt.reason}`);
    case 'message':
      return { skip: 'the agent answered with a Message, not a Task that can wait for input' };
    case 'not-parked': {
      const why = attempt.statusText ? `: ${attempt.statusText}` : '';
      const polled = attempt.fallback ? `; polled GetTask: ${attempt.fallback}` : '';
      return {
        skip: `the agent did not park the task in INPUT_REQUIRED (it is ${attempt.task.status.state}${why})${polled}`,
      };
    }
    case 'no-envelope':
      return { skip: 'the agent parked the task without a hitl-prompt/v1 envelope' };
  }
}

export interface PromptDeps {
  client: A2AClient;
  signal: AbortSignal;
  remainingMs: () => number;
  /** The agent follows a2a-rig scripts. */
  scripts: boolean;
  synthesizer: AnswerSynthesizer;
}

export interface PromptOptions {
  /** Another client than the scenario's own (e.g. one of ctx.newClient()). */
  client?: A2AClient;
  /** Extensions to activate on the creating request instead of the client's ([] activates none). */
  extensions?: readonly string[];
}

/** A task parked in INPUT_REQUIRED with an envelope (S-2 checked), before any answer is built. */
export interface ParkedTask {
  kind: 'parked';
  task: Task;
  prompt: PromptCheck;
  echoed: string[];
}

/** attemptPrompt, answers built from the schema when the envelope is usable. */
export async function attemptPrompt(
  deps: PromptDeps,
  steps?: unknown[],
  extensions?: readonly string[],
): Promise<PromptAttempt> {
  const parked = await parkTask(deps, steps, extensions);
  if (parked.kind !== 'parked') return parked;
  const { task, prompt, echoed } = parked;
  if (!prompt.ok)
    return {
      kind: 'open',
      open: { task, taskId: task.id, prompt, answers: undefined, answersUnavailable: prompt.reason, echoed },
    };
  const synthesis = deps.synthesizer.synthesize(prompt.envelope.response_schema);
  const open: OpenPrompt = synthesis.ok
    ? { task, taskId: task.id, prompt, answers: synthesis.answers, echoed }
    : { task, taskId: task.id, prompt, answers: undefined, answersUnavailable: synthesis.reason, echoed };
  return { kind: 'open', open };
}

/**
 * Sends a new task and waits (bounded) until it parks: the parked task with the S-2 verdict on its
 * envelope, or what happened instead. A load builds its one answer itself (loadIterations.ts).
 */
export async function parkTask(
  deps: Omit<PromptDeps, 'synthesizer'>,
  steps?: unknown[],
  extensions?: readonly string[],
): Promise<ParkedTask | Exclude<PromptAttempt, { kind: 'open' }>> {
  const { client, signal } = deps;
  const message =
    steps && deps.scripts
      ? userMessage({ data: { [SCRIPT_KEY]: { steps } } })
      : userMessage({ text: 'a2a-rig: please ask me for input (hitl-prompt/v1)' });
  let sent;
  try {
    sent = await client.send(message, { signal, ...(extensions ? { extensions } : {}) });
  } catch (err) {
    // An agent may answer an oversized body (413) and close before the rig has sent all of it;
    // the rig then sees the connection closed instead of the status. Both are refusals.
    if (err instanceof TransportError && (err.httpStatus !== undefined || err.failure === 'socket')) {
      return { kind: 'refused', httpStatus: err.httpStatus, rpcCode: undefined, reason: err.message };
    }
    throw err;
  }
  if (!sent.ok)
    return {
      kind: 'refused',
      httpStatus: sent.meta.httpStatus,
      rpcCode: sent.error.code,
      reason: `${sent.error.code} ${sent.error.message}`,
    };
  if (!('task' in sent.value)) return { kind: 'message' };
  let task = sent.value.task;
  let fallback: string | undefined;
  if (task.status.state !== 'TASK_STATE_INPUT_REQUIRED' && !TERMINAL_STATES.has(task.status.state)) {
    ({ task, fallback } = await waitForState(deps, task.id, 'TASK_STATE_INPUT_REQUIRED'));
  }
  if (task.status.state !== 'TASK_STATE_INPUT_REQUIRED') {
    return {
      kind: 'not-parked',
      task,
      statusText: task.status.message?.parts.find((p) => p.text)?.text,
      ...(fallback ? { fallback } : {}),
    };
  }
  const prompt = client.promptOf(task);
  if (!prompt) return { kind: 'no-envelope', task };
  return { kind: 'parked', task, prompt, echoed: sent.meta.echoedExtensions };
}

const POLL_INTERVAL_MS = 20;

/**
 * Watches (bounded) until the task reaches `state` or ends, on a subscription, polling GetTask
 * within the same bound when there is none (`fallback` says why, quoting the code); then the task as
 * GetTask shows it, unless the poll already read it.
 */
async function waitForState(
  deps: Omit<PromptDeps, 'synthesizer'>,
  taskId: string,
  state: TaskState,
): Promise<{ task: Task; fallback?: string }> {
  const { client, signal } = deps;
  const watch = {
    deadline: performance.now() + Math.min(OPEN_PROMPT_WAIT_MS, deps.remainingMs()),
    signal,
    pollIntervalMs: POLL_INTERVAL_MS,
    stopOnReadError: true,
  };
  const reached = (s: TaskState) => s === state || TERMINAL_STATES.has(s);
  const seen = await watchTask(client, taskId, (s) => reached(s.status.state), {
    ...watch,
    method: 'stream',
    awaited: `the task reached ${state}`,
  });
  const { fallback } = seen;
  // Without a fallback the stream already waited out the bound: one snapshot says where the task is.
  const read = seen.via === 'poll' ? seen : await watchTask(client, taskId, () => true, { ...watch, method: 'poll' });
  if (read.readError)
    throw new Error(
      `GetTask ${taskId} failed: ${read.readError.code} ${read.readError.message}` +
        (fallback ? ` (polled because ${fallback})` : ''),
    );
  return { task: read.task!, ...(fallback ? { fallback } : {}) };
}
