// huge-headers: one request whose header block exceeds `bytes` (1 MiB by default), as many 8 KiB
// header lines, written in one go; the body never matters.
import { userMessage } from '../../client/outgoingMessage.ts';
import { requestHead, sendRequest } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { defineAttack, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

const LINE_VALUE = 8 * 1024;

export const hugeHeaders = defineAttack({
  name: 'huge-headers',
  family: 'malformed',
  description: 'a request whose header block is over `bytes` (default 1 MiB), in 8 KiB header lines',
  expected: '431 (or 400, or a close) before the header block ends',
  defaults: { bytes: 1024 * 1024, replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { bytes: [1024, 256 * 1024 * 1024], replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params) {
    const { path, body } = sendRequest(target, userMessage({ text: 'huge headers' }));
    const value = 'h'.repeat(LINE_VALUE);
    let extra = '';
    for (let i = 0; extra.length < params.bytes; i++) extra += `x-a2a-rig-pad-${i}: ${value}\r\n`;
    const bytes = Buffer.from(
      `${requestHead(target, 'POST', path, { contentLength: Buffer.byteLength(body), extra })}${body}`,
      'latin1',
    );
    return (_i, signal) => sendOnce(target, signal, bytes, params.replyTimeoutMs);
  },
});
