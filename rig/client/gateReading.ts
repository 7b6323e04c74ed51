// Recognising the acceptance gate in what an agent sends back. Everything here reads canonical
// shapes (wireInbound.ts has already turned 0.3's `input-required`/`kind` and 1.0's ProtoJSON,
// with its omitted defaults, into them), so one reading serves both wire generations.
//
// Two facts decide whether a client may wait for a decision point:
// - the echo: the agent lists ACCEPTANCE_URI in the response's `A2A-Extensions` header. Without
//   it the draft says the client MUST assume plain WORKING → COMPLETED and MUST NOT wait for a
//   gate (`gateOf` → 'absent');
// - the pending state: INPUT_REQUIRED with `{[PENDING_KEY]: true}` on the status message's
//   metadata (no new TaskState exists for it). INPUT_REQUIRED without the flag is some other
//   interruption (a hitl prompt, say), not the gate.
import type { Message, StreamResponse, Task, TaskStatus } from '../protocol/a2aTypes.ts';
import { ACCEPTANCE_URI, CRITERIA_KEY, DECISION_KEY, PENDING_KEY } from '../protocol/acceptance.ts';

/** 'active': the agent echoed the extension, so a gate may come. 'absent': it did not; never wait for one. */
export type AcceptanceGate = 'active' | 'absent';

/** The extension's three metadata keys; a message carrying one must list ACCEPTANCE_URI. */
export const ACCEPTANCE_KEYS: readonly string[] = [CRITERIA_KEY, PENDING_KEY, DECISION_KEY];

export function acceptanceEchoed(meta: { echoedExtensions: readonly string[] }): boolean {
  return meta.echoedExtensions.includes(ACCEPTANCE_URI);
}

export function gateOf(meta: { echoedExtensions: readonly string[] }): AcceptanceGate {
  return acceptanceEchoed(meta) ? 'active' : 'absent';
}

function statusOf(subject: Task | TaskStatus | StreamResponse): TaskStatus | undefined {
  if ('state' in subject) return subject;
  if ('status' in subject) return subject.status;
  if ('task' in subject) return subject.task.status;
  if ('statusUpdate' in subject) return subject.statusUpdate.status;
  return undefined;
}

/** A task, status or stream event that parks the task waiting for accept/reject. */
export function isPendingAcceptance(subject: Task | TaskStatus | StreamResponse | undefined): boolean {
  const status = subject === undefined ? undefined : statusOf(subject);
  return status?.state === 'TASK_STATE_INPUT_REQUIRED' && status.message?.metadata?.[PENDING_KEY] === true;
}

/** Which of the extension's keys a message's metadata carries. */
export function acceptanceKeysOf(message: Message): string[] {
  const metadata = message.metadata;
  return metadata ? ACCEPTANCE_KEYS.filter((k) => Object.hasOwn(metadata, k)) : [];
}

/** True unless the message carries one of the keys without listing ACCEPTANCE_URI in `extensions`. */
export function listsAcceptanceWhereNeeded(message: Message): boolean {
  return acceptanceKeysOf(message).length === 0 || (message.extensions ?? []).includes(ACCEPTANCE_URI);
}

function messagesOf(subject: Task | StreamResponse | Message): Array<[string, Message]> {
  if ('messageId' in subject) return [['message', subject]];
  if ('id' in subject) {
    const found: Array<[string, Message]> = subject.history.map((m, i) => [`history[${i}]`, m]);
    if (subject.status.message) found.push(['status.message', subject.status.message]);
    return found;
  }
  if ('task' in subject) return messagesOf(subject.task);
  if ('message' in subject) return [['message', subject.message]];
  if ('statusUpdate' in subject)
    return subject.statusUpdate.status.message
      ? [['statusUpdate.status.message', subject.statusUpdate.status.message]]
      : [];
  return [];
}

/**
 * The messages of a task, event or message that carry one of the keys without listing the URI, one
 * line each (e.g. `status.message 7f3… carries …/pendingAcceptance but its extensions do not list …`);
 * empty when the rule holds.
 */
export function unlistedAcceptanceMessages(subject: Task | StreamResponse | Message): string[] {
  return messagesOf(subject)
    .filter(([, m]) => !listsAcceptanceWhereNeeded(m))
    .map(
      ([where, m]) =>
        `${where} ${m.messageId} carries ${acceptanceKeysOf(m)
          .map((k) => k.slice(ACCEPTANCE_URI.length + 1))
          .join(', ')} but its extensions do not list ${ACCEPTANCE_URI}`,
    );
}
