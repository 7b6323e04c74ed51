// deep-answer: an answer whose payload is the prompt's valid payload plus a property `tree` holding
// arrays nested `depth` levels deep (10,000 by default): a recursive parser or validator without a
// depth bound overflows its stack or stalls. Under a property, not as the payload itself: a bare
// array is refused by any object schema's `type` before depth matters, which proves nothing.
import { answerRequest, postBytes } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { defineAttack, livePromptOr, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

export const deepAnswer = defineAttack({
  name: 'deep-answer',
  family: 'payloads',
  description: 'answers to a live prompt: its valid payload plus `tree`, `depth` nested arrays (default 10,000)',
  expected: 'refused (400/422 or a JSON-RPC error) by the nesting bound, quickly, never a 5xx',
  defaults: { depth: 10_000, replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { depth: [1, 10_000_000], replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params, notes) {
    // A live prompt and a valid payload, or nothing: a deep answer refused for an unknown task or a
    // missing required property proves nothing about a nesting bound (it would read as a pass).
    const prompt = await livePromptOr(target, notes, false);
    if (!prompt) return undefined;
    const valid = prompt.validPayload;
    if (typeof valid !== 'object' || valid === null || Array.isArray(valid)) {
      notes.push(
        'no valid object payload is known for the prompt (the rig could not build one from its response_schema), ' +
          "so a refusal could be the schema's rather than a nesting bound: nothing started",
      );
      return undefined;
    }
    const nested = `${'['.repeat(params.depth)}${']'.repeat(params.depth)}`;
    const { tree: _replaced, ...rest } = valid as Record<string, unknown>;
    const fields = JSON.stringify({ ...rest, tree: 0 });
    // `"tree":0` is the last member JSON.stringify writes; the nesting takes its place.
    const { path, body } = answerRequest(target, prompt, `${fields.slice(0, fields.length - '0}'.length)}${nested}}`);
    const bytes = postBytes(target, path, body);
    return (_i, signal) => sendOnce(target, signal, bytes, params.replyTimeoutMs);
  },
});
