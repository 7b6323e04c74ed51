// The answer path of hitl-prompt/v1 (§Response envelope, §Acceptance and rejection): exactly one
// valid answer per prompt, 409 for unknown or answered prompts, 422 with validation_errors for
// invalid payloads (the task stays in INPUT_REQUIRED), and the move out of INPUT_REQUIRED committed
// before the caller hears back. Node runs this synchronously from lookup to commit, and the
// conditional UPDATE in the outbox makes the single acceptance hold even across processes.
import { randomUUID } from 'node:crypto';
import type { Message } from '../protocol/a2aTypes.ts';
import { TERMINAL_STATES } from '../protocol/a2aTypes.ts';
import {
  A2AError,
  A2A_UNSUPPORTED_OPERATION,
  HITL_ALREADY_ANSWERED_OR_UNKNOWN,
  HITL_ALREADY_ANSWERED_OR_UNKNOWN_MESSAGE,
  HITL_RESPONSE_INVALID,
  HITL_RESPONSE_INVALID_MESSAGE,
  JSONRPC_INVALID_PARAMS,
} from '../protocol/errorCodes.ts';
import { HITL_PROMPT_URI, HITL_RESPONSE_KEY, type ValidationErrorEntry } from '../protocol/hitlPrompt.ts';
import type { AnswerOutcomeLabel } from './agentMetrics.ts';
import type { TaskRow } from './outbox.ts';
import type { PromptRow } from './promptStore.ts';
import type { Script } from './script.ts';
import type { TaskEngine } from './taskEngine.ts';
import { isoNow } from './isoNow.ts';

const SLOW_RESUME_MS = 1500;

function alreadyAnsweredOrUnknown(promptId: string): A2AError {
  return new A2AError(HITL_ALREADY_ANSWERED_OR_UNKNOWN, HITL_ALREADY_ANSWERED_OR_UNKNOWN_MESSAGE, {
    extension: HITL_PROMPT_URI,
    prompt_id: promptId,
    detail: 'no open prompt with this prompt_id on this task',
  });
}

/**
 * The 422 / -32011 of the contract's examples/invalid-response-422.json: error.data is
 * {extension, prompt_id, validation_errors}. The `validation-errors-elsewhere` fault renders it as
 * an SDK does, inside a google.rpc ErrorInfo (whose metadata holds strings only);
 * `rejection-data-bare` keeps only the array (the MUST), `rejection-detail-only` only a sentence.
 */
function responseInvalid(engine: TaskEngine, promptId: string, errors: ValidationErrorEntry[]): A2AError {
  return new A2AError(HITL_RESPONSE_INVALID, HITL_RESPONSE_INVALID_MESSAGE, rejectionData(engine, promptId, errors));
}

function rejectionData(engine: TaskEngine, promptId: string, errors: ValidationErrorEntry[]): unknown {
  if (engine.faults.has('rejection-data-bare')) return { validation_errors: errors };
  if (engine.faults.has('rejection-detail-only'))
    return { detail: errors.map((e) => `${e.path || '/'}: ${e.message}`).join('; ') };
  if (!engine.faults.has('validation-errors-elsewhere'))
    return { extension: HITL_PROMPT_URI, prompt_id: promptId, validation_errors: errors };
  return [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: HITL_RESPONSE_INVALID_MESSAGE,
      domain: HITL_PROMPT_URI,
      metadata: { prompt_id: promptId, validation_errors: JSON.stringify(errors) },
    },
  ];
}

function readResponseEnvelope(raw: unknown): { promptId: string; payload: unknown } {
  const shape =
    `metadata.${HITL_RESPONSE_KEY} must be an object ` + 'with exactly "prompt_id" (string) and "payload" (object)';
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new A2AError(JSONRPC_INVALID_PARAMS, shape);
  const { prompt_id: promptId, payload, ...extra } = raw as Record<string, unknown>;
  if (typeof promptId !== 'string' || Object.keys(extra).length > 0) throw new A2AError(JSONRPC_INVALID_PARAMS, shape);
  return { promptId, payload };
}

/** Handles a user message sent to an existing task. Throws A2AError for every refusal. */
export function continueTask(engine: TaskEngine, message: Message, activated: boolean): TaskRow {
  const receivedAt = performance.now();
  const row = engine.getRow(message.taskId!);
  const response = message.metadata?.[HITL_RESPONSE_KEY];
  if (response !== undefined) {
    try {
      const answered = answerPrompt(engine, row, message, readResponseEnvelope(response), activated, receivedAt);
      engine.metrics?.answered('accepted');
      return answered;
    } catch (err) {
      engine.metrics?.answered(outcomeOf(err));
      throw err;
    }
  }
  const state = row.task.status.state;
  if (TERMINAL_STATES.has(state)) {
    throw new A2AError(A2A_UNSUPPORTED_OPERATION, `task ${row.task.id} is ${state}; it accepts no more messages`);
  }
  const open = engine.outbox.prompts.openOf(row.task.id);
  if (state !== 'TASK_STATE_INPUT_REQUIRED' || !open) {
    throw new A2AError(
      A2A_UNSUPPORTED_OPERATION,
      `task ${row.task.id} is ${state}; it accepts input only in INPUT_REQUIRED`,
    );
  }
  if (row.activated) {
    throw new A2AError(
      JSONRPC_INVALID_PARAMS,
      `task ${row.task.id} waits for a hitl-prompt/v1 answer: ` +
        `put {prompt_id, payload} in metadata.${HITL_RESPONSE_KEY}`,
    );
  }
  // Plain A2A continuation of a prompt emitted without the envelope: the message is the answer.
  // One that does not satisfy the prompt's schema (this client never saw it), or that the script
  // marks as asking for more (askAgainOn), joins the history and the prompt stays open.
  const data = message.parts.find((p) => p.data !== undefined)?.data;
  const text = message.parts.find((p) => p.text !== undefined)?.text;
  const payload = data ?? { text: text ?? '' };
  const { askAgainOn } = row.script as Script;
  if (
    (askAgainOn !== undefined && message.messageId.startsWith(askAgainOn)) ||
    (!engine.faults.has('skip-validation') && engine.validator.compile(open.schema).validate(payload).length > 0)
  ) {
    askAgain(engine, row, message);
    return row;
  }
  const answered = accept(engine, row, open, message, payload, activated, receivedAt);
  engine.metrics?.answered('accepted');
  return answered;
}

/**
 * Records a user message that leaves the open prompt open: it joins the history and the task
 * announces INPUT_REQUIRED again with the prompt's message (a fresh messageId), in one commit.
 */
function askAgain(engine: TaskEngine, row: TaskRow, message: Message): void {
  engine.ensureHistoryRoom(row, message);
  const previous = row.task.status.message;
  engine.commit(
    row,
    (task) => {
      engine.outbox.appendHistory(row, message);
      const again: Message | undefined = previous ? { ...previous, messageId: randomUUID() } : undefined;
      task.status = {
        state: 'TASK_STATE_INPUT_REQUIRED',
        timestamp: isoNow(),
        ...(again ? { message: again } : {}),
      };
      if (again) engine.outbox.appendHistory(row, again);
    },
    (task) => ({ statusUpdate: { taskId: task.id, contextId: task.contextId, status: task.status } }),
  );
}

function outcomeOf(err: unknown): AnswerOutcomeLabel {
  const code = err instanceof A2AError ? err.code : undefined;
  return code === HITL_ALREADY_ANSWERED_OR_UNKNOWN ? 'conflict' : code === HITL_RESPONSE_INVALID ? 'invalid' : 'error';
}

function answerPrompt(
  engine: TaskEngine,
  row: TaskRow,
  message: Message,
  response: { promptId: string; payload: unknown },
  activated: boolean,
  receivedAt: number,
): TaskRow {
  const prompt = engine.outbox.prompts.find(row.task.id, response.promptId);
  const duplicatesAllowed = engine.faults.has('accept-duplicates');
  if (!prompt || prompt.state === 'closed' || (prompt.state === 'answered' && !duplicatesAllowed)) {
    throw alreadyAnsweredOrUnknown(response.promptId);
  }
  if (typeof response.payload !== 'object' || response.payload === null || Array.isArray(response.payload)) {
    throw responseInvalid(engine, response.promptId, [
      { path: '', keyword: 'type', message: 'payload must be an object' },
    ]);
  }
  if (!engine.faults.has('skip-validation')) {
    const errors = engine.validator.compile(prompt.schema).validate(response.payload);
    if (errors.length > 0) {
      throw responseInvalid(engine, response.promptId, errors);
    }
  }
  if (prompt.state === 'answered') {
    // accept-duplicates fault: a second "acceptance" announces a second resume.
    engine.setStatus(row, 'TASK_STATE_WORKING');
    engine.metrics?.resumed((performance.now() - receivedAt) / 1000);
    return row;
  }
  return accept(engine, row, prompt, message, response.payload, activated, receivedAt);
}

/** Takes the prompt (the conditional UPDATE) and records the answer in the history, in the caller's
 * transaction. A function of the module, not a closure per answer: under tsx's keepNames a named
 * function made per call costs a defineProperty (commitHold.ts). */
function recordAnswer(engine: TaskEngine, row: TaskRow, prompt: PromptRow, message: Message, payload: unknown): void {
  if (!engine.outbox.prompts.answer(row.task.id, prompt.step, payload)) throw alreadyAnsweredOrUnknown(prompt.promptId);
  // In the same transaction as the conditional UPDATE: the answer joins the history exactly once.
  engine.outbox.appendHistory(row, message);
}

function accept(
  engine: TaskEngine,
  row: TaskRow,
  prompt: PromptRow,
  message: Message,
  payload: unknown,
  activated: boolean,
  receivedAt: number,
): TaskRow {
  const resumeNow = !engine.faults.has('keep-input-required') && !engine.faults.has('slow-resume');
  engine.ensureHistoryRoom(row, message);
  row.lastAnswer = payload;
  row.step = prompt.step + 1;
  row.activated = activated;
  if (resumeNow) {
    // An arrow made in the call has no name to keep (see recordAnswer).
    engine.setStatus(row, 'TASK_STATE_WORKING', undefined, undefined, () =>
      recordAnswer(engine, row, prompt, message, payload),
    );
    engine.metrics?.resumed((performance.now() - receivedAt) / 1000);
    // As after createTask: the next steps join the answer's batch (one COMMIT, same turn).
    queueMicrotask(() => engine.advance(row.task.id));
    return row;
  }
  engine.outbox.transaction(() => {
    recordAnswer(engine, row, prompt, message, payload);
    engine.outbox.updateTask(row);
  });
  if (engine.faults.has('slow-resume')) {
    engine.later(SLOW_RESUME_MS, () => {
      const current = engine.getRow(row.task.id);
      engine.setStatus(current, 'TASK_STATE_WORKING');
      engine.metrics?.resumed((performance.now() - receivedAt) / 1000);
      engine.advance(row.task.id);
    });
  }
  return row;
}
