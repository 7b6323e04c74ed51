// How a check's detail says what came back, in one wording for every scenario: an answer's or a
// decision's outcome, and what became of an attempt to open a prompt.
import type { PromptAttempt } from './promptOpener.ts';

/** `conflict (HTTP 409, code -32010)`; `extra` goes inside the parentheses (`, 2 validation_errors`). */
export function describeOutcome(
  outcome: { kind: string; httpStatus?: number | undefined; rpcCode?: number | undefined },
  extra?: string,
): string {
  return `${outcome.kind} (HTTP ${outcome.httpStatus}, code ${outcome.rpcCode}${extra ? `, ${extra}` : ''})`;
}

/** What became of `ctx.attemptPrompt()`, for a check that expects the agent may rightly refuse. */
export function describeAttempt(attempt: PromptAttempt): string {
  switch (attempt.kind) {
    case 'open':
      return (
        'emitted: the task is INPUT_REQUIRED with the envelope ' +
        `(${attempt.open.prompt.ok ? 'passes S-2' : attempt.open.prompt.reason})`
      );
    case 'not-parked':
      return `the task is ${attempt.task.status.state}: ${attempt.statusText ?? '(no status message)'}`;
    case 'no-envelope':
      return 'the task is INPUT_REQUIRED without an envelope';
    case 'message':
      return 'the agent answered with a Message';
    case 'refused':
      return `the request was refused${attempt.httpStatus ? ` (HTTP ${attempt.httpStatus})` : ''}: ${attempt.reason}`;
  }
}
