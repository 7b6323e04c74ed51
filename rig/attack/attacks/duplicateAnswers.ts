// duplicate-answers: valid answers to prompts that were already answered. The attack opens
// `prompts` live prompts, answers each once (legitimately, checking it was taken), then floods them
// with the same valid answer: each must be refused as already answered.
import type { LivePrompt } from '../attackTypes.ts';
import { answerRequest, postBytes } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { defineAttack, livePromptOr, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

export const duplicateAnswers = defineAttack({
  name: 'duplicate-answers',
  family: 'answers',
  description: 'valid answers to live prompts already answered once (`prompts` of them, round robin)',
  expected: '409 / -32010 hitl_already_answered_or_unknown, never a second acceptance',
  defaults: { prompts: 4, replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { prompts: [1, 1_000], replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params, notes, signal) {
    const requests: Buffer[] = [];
    for (let i = 0; i < params.prompts && !signal.aborted; i++) {
      const prompt: LivePrompt | undefined = await livePromptOr(target, notes, false);
      if (!prompt) break;
      const bytes = postBytes(target, ...answerArgs(target, prompt));
      const first = await sendOnce(target, signal, bytes, params.replyTimeoutMs);
      if (first === 'aborted') return undefined;
      if (first.kind !== 'accepted') {
        notes.push(
          `the first, legitimate answer to prompt ${prompt.promptId} was not taken ` +
            `(${first.kind}: ${first.detail}): prompt left out`,
        );
        continue;
      }
      requests.push(bytes);
    }
    if (requests.length === 0) {
      notes.push('no prompt was answered once: nothing to duplicate, nothing started');
      return undefined;
    }
    return (i, s) => sendOnce(target, s, requests[i % requests.length], params.replyTimeoutMs);
  },
});

function answerArgs(target: Parameters<typeof answerRequest>[0], prompt: LivePrompt): [string, string] {
  const { path, body } = answerRequest(target, prompt, JSON.stringify(prompt.validPayload));
  return [path, body];
}
