// pattern-backtracking: answers whose strings are aimed at the `pattern` keywords of the live
// prompt's own response_schema (backtrackingInput.ts): an agent that validates with a backtracking
// regex engine spends 2^repeat steps on each, blocking everything else it serves.
import { answerRequest, postBytes } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { backtrackingInput, findPatterns } from '../backtrackingInput.ts';
import { defineAttack, livePromptOr, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

/** `payload` with `value` at `path` (objects made where missing); the payload itself for []. */
function withValueAt(payload: unknown, path: string[], value: string): unknown {
  if (path.length === 0) return value;
  const base =
    payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? { ...(payload as Record<string, unknown>) }
      : {};
  base[path[0]] = withValueAt(base[path[0]], path.slice(1), value);
  return base;
}

export const patternBacktracking = defineAttack({
  name: 'pattern-backtracking',
  family: 'payloads',
  description:
    "answers to a live prompt whose strings are aimed at its response_schema's `pattern` keywords: " +
    "a repeated group's text `repeat` times, then a character that fails the match",
  expected: 'refused (422 / -32011) within the validation budget: a linear-time matcher never backtracks',
  // 2^27 steps: seconds a string for V8's backtracking engine, so a backtracking agent is past
  // maxRefusalP99Ms (1 s) with a margin however fast or idle the box (docs/benchmarks.md, "Figures
  // behind bounds in the code"); at 25 a quiet box answered within the bound. A linear-time matcher
  // reads 28 characters at once.
  defaults: { repeat: 27, replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { repeat: [1, 100_000], replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params, notes) {
    const prompt = await livePromptOr(target, notes, false);
    if (!prompt) return undefined;
    const found = findPatterns(prompt.responseSchema);
    if (found.length === 0) {
      notes.push("the live prompt's response_schema has no `pattern` keyword: nothing to aim at, nothing started");
      return undefined;
    }
    const requests: Buffer[] = [];
    for (const { pattern, propertyPath } of found) {
      const input = backtrackingInput(pattern, params.repeat);
      if (input === undefined)
        notes.push(`pattern ${JSON.stringify(pattern)} has no repeated ambiguous group: skipped`);
      else if (propertyPath === undefined)
        notes.push(`pattern ${JSON.stringify(pattern)} is not under a chain of properties: skipped`);
      else {
        const { path, body } = answerRequest(
          target,
          prompt,
          JSON.stringify(withValueAt(prompt.validPayload, propertyPath, input)),
        );
        requests.push(postBytes(target, path, body));
      }
    }
    if (requests.length === 0) {
      notes.push('no pattern of the schema can be aimed at: nothing started');
      return undefined;
    }
    return (i, signal) => sendOnce(target, signal, requests[i % requests.length], params.replyTimeoutMs);
  },
});
