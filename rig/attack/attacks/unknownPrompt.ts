// unknown-prompt: answers naming a prompt_id the task never issued, sent to a live task (so the
// agent must look the prompt up, not just the task).
import { randomUUID } from 'node:crypto';
import { answerRequest, postBytes } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { defineAttack, livePromptOr, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

export const unknownPrompt = defineAttack({
  name: 'unknown-prompt',
  family: 'answers',
  description: 'valid-looking answers to a live task naming a fresh, never issued prompt_id each time',
  expected: '409 / -32010 hitl_already_answered_or_unknown, and the live prompt stays open',
  defaults: { replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params, notes) {
    const prompt = await livePromptOr(target, notes, false);
    if (!prompt) return undefined;
    const payload = JSON.stringify(prompt.validPayload);
    return (_i, signal) => {
      const { path, body } = answerRequest(target, prompt, payload, randomUUID());
      return sendOnce(target, signal, postBytes(target, path, body), params.replyTimeoutMs);
    };
  },
});
