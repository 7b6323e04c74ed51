// deep-answer: an answer whose payload is arrays nested `depth` levels deep (10,000 by default):
// a recursive parser or validator without a depth bound overflows its stack or stalls.
import { answerRequest, postBytes } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { defineAttack, livePromptOr, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

export const deepAnswer = defineAttack({
  name: 'deep-answer',
  family: 'payloads',
  description: 'answers to a live prompt whose payload is `depth` nested arrays (default 10,000)',
  expected: 'refused (400/422 or a JSON-RPC error) by the nesting bound, quickly, never a 5xx',
  defaults: { depth: 10_000, replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { depth: [1, 10_000_000], replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params, notes) {
    const prompt = await livePromptOr(target, notes, true);
    if (!prompt) return undefined;
    const { path, body } = answerRequest(target, prompt, `${'['.repeat(params.depth)}${']'.repeat(params.depth)}`);
    const bytes = postBytes(target, path, body);
    return (_i, signal) => sendOnce(target, signal, bytes, params.replyTimeoutMs);
  },
});
