// oversized-answer: an answer to a live prompt whose body exceeds `bytes`. The head and a first
// chunk go out, then the attack waits `refusalWaitMs` for the agent to refuse before sending the
// rest: an agent that checks Content-Length refuses (413) before the body ends; one that reads
// every body whole answers only after the last byte. `beforeBodyEnd` on the outcome says which.
import { answerRequest, requestHead } from '../attackRequests.ts';
import { attackExchange } from '../attackSocket.ts';
import { defineAttack, livePromptOr, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

const defaults = {
  bytes: 2 * 1024 * 1024,
  firstChunkBytes: 64 * 1024,
  refusalWaitMs: 1_000,
  replyTimeoutMs: REPLY_TIMEOUT_MS,
};

export const oversizedAnswer = defineAttack({
  name: 'oversized-answer',
  family: 'payloads',
  description:
    'answers to a live prompt with a body over `bytes` (default 2 MiB), ' +
    'sent as the head and a first chunk, then the rest after `refusalWaitMs`',
  expected: '413 (or a close) before the whole body is sent (beforeBodyEnd: true)',
  defaults,
  bounds: {
    bytes: [1024, 256 * 1024 * 1024],
    firstChunkBytes: [0, 256 * 1024 * 1024],
    refusalWaitMs: [0, 60_000],
    replyTimeoutMs: [1, MAX_HOLD_MS],
  },
  async prepare(target, params, notes) {
    const prompt = await livePromptOr(target, notes, true);
    if (!prompt) return undefined;
    const valid = prompt.validPayload;
    const base =
      valid !== null && typeof valid === 'object' && !Array.isArray(valid) ? JSON.stringify(valid).slice(0, -1) : '{';
    const empty = answerRequest(target, prompt, '{}');
    // The payload travels twice (metadata and data part): pad each so the whole body is `bytes`.
    const padEach = Math.max(0, Math.ceil((params.bytes - Buffer.byteLength(empty.body)) / 2) - base.length - 20);
    const payload = `${base}${base.length > 1 ? ',' : ''}"a2a_rig_pad":"${'x'.repeat(padEach)}"}`;
    const { path, body } = answerRequest(target, prompt, payload);
    const bodyBytes = Buffer.from(body, 'utf8');
    const head = Buffer.from(requestHead(target, 'POST', path, { contentLength: bodyBytes.length }), 'latin1');
    const first = Math.min(params.firstChunkBytes, bodyBytes.length - 1);
    const opening = Buffer.concat([head, bodyBytes.subarray(0, first)]);
    const rest = bodyBytes.subarray(first);
    return (_i, signal) =>
      attackExchange(
        target,
        signal,
        { holdMs: params.refusalWaitMs + params.replyTimeoutMs, what: 'oversized answer', tracksBodyEnd: true },
        async (io) => {
          if (!(await io.write(opening))) return;
          if (!(await io.sleep(params.refusalWaitMs))) return;
          if (await io.write(rest)) io.markBodyEnd();
        },
      );
  },
});
