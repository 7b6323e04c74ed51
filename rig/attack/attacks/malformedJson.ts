// malformed-json: bodies that are not JSON, in turn: a send cut short, garbage bytes, an unclosed
// object, a bare token, trailing junk after a valid request, an empty body. They go to the JSON-RPC
// endpoint or the HTTP+JSON send route, whichever the target's binding is.
import { userMessage } from '../../client/outgoingMessage.ts';
import { postBytes, sendPath, sendRequest } from '../attackRequests.ts';
import { sendOnce } from '../attackSocket.ts';
import { defineAttack, REPLY_TIMEOUT_MS, MAX_HOLD_MS } from '../defineAttack.ts';

export const malformedJson = defineAttack({
  name: 'malformed-json',
  family: 'malformed',
  description: 'truncated or garbage JSON bodies on the binding endpoint (six variants in turn)',
  expected: '400 / -32700 parse error (HTTP 200 with a JSON-RPC error counts), never a 5xx',
  defaults: { replyTimeoutMs: REPLY_TIMEOUT_MS },
  bounds: { replyTimeoutMs: [1, MAX_HOLD_MS] },
  async prepare(target, params) {
    const valid = sendRequest(target, userMessage({ text: 'malformed' })).body;
    const path = sendPath(target);
    const bodies = [
      valid.slice(0, Math.floor(valid.length / 2)),
      '\u0001\u0002garbage}{',
      '{"jsonrpc":"2.0","id":1,',
      'nul',
      `${valid}}}trailing`,
      '',
    ];
    const requests = bodies.map((b) => postBytes(target, path, b));
    return (i, signal) => sendOnce(target, signal, requests[i % requests.length], params.replyTimeoutMs);
  },
});
