// Messages to an existing task when the acceptance extension may be involved: a decision (accept /
// reject) on a request that activated the extension, a no-op for any other message to a pending
// task, and hitl-prompt/v1's answer path for the rest. Exactly one decision wins: the gate moves
// by a conditional UPDATE in the same transaction as the task's state change, its event and the
// decision joining the history; the reply is the task as committed. Refusals, in this order:
// task unknown (404), malformed decision (-32044, 400), caller not entitled (-32043, 403), gate
// not pending — never gated, not yet pending, already decided, or a racing decision won (-32042, 409).
import type { Message } from '../protocol/a2aTypes.ts';
import { TERMINAL_STATES } from '../protocol/a2aTypes.ts';
import {
  ACCEPTANCE_DECISION_CONFLICT,
  ACCEPTANCE_DECISION_INVALID,
  ACCEPTANCE_DECISION_UNAUTHORIZED,
  ACCEPTANCE_ERROR_MESSAGES,
  ACCEPTANCE_URI,
  DECISION_KEY,
  type Decision,
} from '../protocol/acceptance.ts';
import { A2AError } from '../protocol/errorCodes.ts';
import { HITL_RESPONSE_KEY } from '../protocol/hitlPrompt.ts';
import { hasDecision, readDecision } from './decisionInput.ts';
import type { GateRow } from './gateStore.ts';
import type { DecisionOutcomeLabel } from './agentMetrics.ts';
import { mayDecide, principalOf } from './decisionAuthority.ts';
import { continueTask } from './hitlAnswers.ts';
import type { TaskRow } from './outbox.ts';
import type { TaskEngine } from './taskEngine.ts';

export interface ContinueRequest {
  /** hitl-prompt/v1 was activated on this request. */
  hitl: boolean;
  /** The acceptance extension was activated on this request (a decision counts only then). */
  acceptance: boolean;
  authorization?: string;
}

function extensionError(code: number, reason: string, taskId: string): A2AError {
  return new A2AError(code, ACCEPTANCE_ERROR_MESSAGES[code], { extension: ACCEPTANCE_URI, reason, taskId });
}

function notPending(row: TaskRow, gate: GateRow): A2AError {
  const { id, status } = row.task;
  const reason =
    gate.outcome !== null || TERMINAL_STATES.has(status.state)
      ? `task ${id} is ${status.state}: its acceptance was already decided`
      : `task ${id} is not pending acceptance (it is ${status.state}; attempt ${gate.attempt + 1} has not finished)`;
  return extensionError(ACCEPTANCE_DECISION_CONFLICT, reason, id);
}

/** Handles a user message sent to an existing task. Throws A2AError for every refusal. */
/** The message carries a hitl-prompt/v1 answer (valid or not): metadata names the response key. */
export function carriesHitlAnswer(message: Message): boolean {
  return typeof message.metadata === 'object' && message.metadata !== null && HITL_RESPONSE_KEY in message.metadata;
}

export function continueWithGate(engine: TaskEngine, message: Message, request: ContinueRequest): TaskRow {
  const taskId = message.taskId!;
  if (request.acceptance && hasDecision(message.metadata)) {
    try {
      const decided = decide(engine, message, request);
      engine.metrics?.decided(
        (message.metadata![DECISION_KEY] as { action: string }).action === 'accept' ? 'accepted' : 'rejected',
      );
      return decided;
    } catch (err) {
      engine.metrics?.decided(refusalOf(err));
      throw err;
    }
  }
  // A message that is not a decision leaves a pending gate pending (the draft's proposed default);
  // a hitl-prompt/v1 answer still goes its own way (a late duplicate answer gets hitl's 409).
  if (!carriesHitlAnswer(message) && engine.outbox.gates.get(taskId)?.pending) return engine.getRow(taskId);
  return continueTask(engine, message, request.hitl);
}

function refusalOf(err: unknown): DecisionOutcomeLabel {
  const code = err instanceof A2AError ? err.code : undefined;
  return code === ACCEPTANCE_DECISION_CONFLICT
    ? 'conflict'
    : code === ACCEPTANCE_DECISION_UNAUTHORIZED
      ? 'unauthorized'
      : code === ACCEPTANCE_DECISION_INVALID
        ? 'invalid'
        : 'error';
}

function decide(engine: TaskEngine, message: Message, request: ContinueRequest): TaskRow {
  const row = engine.getRow(message.taskId!);
  const taskId = row.task.id;
  const decision = readDecision(message.metadata![DECISION_KEY]);
  const gate = engine.outbox.gates.get(taskId);
  if (!gate) {
    throw extensionError(
      ACCEPTANCE_DECISION_CONFLICT,
      `task ${taskId} was not created with the acceptance extension activated: it has no gate to decide`,
      taskId,
    );
  }
  if (
    !engine.faults.has('acceptance-ignores-authorization') &&
    !mayDecide(gate.creator, gate.deciders, principalOf(request.authorization))
  ) {
    throw extensionError(
      ACCEPTANCE_DECISION_UNAUTHORIZED,
      `this caller may not decide task ${taskId}: only its creator (the same bearer token) ` +
        `or a principal named in its creating message's metadata["a2a-rig/deciders"] may`,
      taskId,
    );
  }
  engine.ensureHistoryRoom(row, message);
  if (!gate.pending) {
    if (engine.faults.has('acceptance-accepts-second-decision') && gate.outcome !== null)
      return decideAgain(engine, row, message, decision);
    throw notPending(row, gate);
  }
  const won = (moved: boolean) => {
    if (!moved) throw notPending(engine.getRow(taskId), engine.outbox.gates.get(taskId)!);
  };
  const keepFeedback = () => {
    if (decision.action === 'reject' && engine.faults.has('acceptance-drops-feedback')) return;
    engine.outbox.appendHistory(row, message);
  };
  if (decision.action === 'accept') {
    engine.acceptance.transition(row, 'TASK_STATE_COMPLETED', 'accepted', () => {
      won(engine.outbox.gates.decide(taskId, gate.attempt, 'accepted'));
      keepFeedback();
    });
    return row;
  }
  const { faults } = engine;
  const rejections = engine.acceptance.rejectionsOf(gate) + 1;
  const noRetry = decision.retry === false && !faults.has('acceptance-ignores-retry-false');
  const exhausted = rejections > gate.criteria.maxRejections && !faults.has('acceptance-ignores-max-rejections');
  if (noRetry || exhausted) {
    const why = noRetry
      ? 'without retry'
      : `${rejections} rejections, more than maxRejections (${gate.criteria.maxRejections})`;
    engine.acceptance.transition(row, 'TASK_STATE_FAILED', `rejected (${decision.reason}), ${why}`, () => {
      won(engine.outbox.gates.decide(taskId, gate.attempt, 'rejected'));
      keepFeedback();
    });
    return row;
  }
  const durable = faults.has('acceptance-forgets-rejections') ? 0 : rejections;
  engine.acceptance.transition(row, 'TASK_STATE_WORKING', undefined, () => {
    won(engine.outbox.gates.retry(taskId, gate.attempt, durable));
    keepFeedback();
  });
  engine.acceptance.rememberRejections(taskId, rejections);
  // The next attempt runs from the end of the script: its artifacts, then pending again.
  setImmediate(() => engine.advance(taskId));
  return row;
}

/** The acceptance-accepts-second-decision fault: a decided gate takes the decision again (200). */
function decideAgain(engine: TaskEngine, row: TaskRow, message: Message, decision: Decision): TaskRow {
  const accept = decision.action === 'accept';
  engine.acceptance.transition(
    row,
    accept ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_FAILED',
    accept ? 'accepted' : `rejected (${decision.reason})`,
    () => {
      engine.outbox.gates.overwrite(row.task.id, accept ? 'accepted' : 'rejected');
      engine.outbox.appendHistory(row, message);
    },
  );
  return row;
}
