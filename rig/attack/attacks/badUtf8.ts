// bad-utf8: a well-formed send whose text part holds bytes that are not UTF-8 (a lone continuation
// byte, an overlong encoding, a truncated sequence, 0xFF), put into the JSON string raw.
import { userMessage } from '../../client/outgoingMessage.ts';
import { postBytes, sendRequest } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { defineAttack, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

const MARK = 'a2a-rig-bad-utf8-mark';
const BAD = [Buffer.from([0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0xe2, 0x82]), Buffer.from([0xff, 0xfe])];

export const badUtf8 = defineAttack({
  name: 'bad-utf8',
  family: 'malformed',
  description: 'sends whose JSON string holds invalid UTF-8 bytes (four byte sequences in turn)',
  expected: '400 / -32700 (the body is not UTF-8), never a 5xx',
  defaults: { replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params) {
    const { path, body } = sendRequest(target, userMessage({ text: MARK }));
    const [before, after] = body.split(MARK);
    const requests = BAD.map((bad) =>
      postBytes(target, path, Buffer.concat([Buffer.from(`${before}bad `), bad, Buffer.from(` bytes${after}`)])),
    );
    return (i, signal) => sendOnce(target, signal, requests[i % requests.length], params.replyTimeoutMs);
  },
});
