// slow-body: a valid-looking send declaring a large Content-Length (below the usual body limits, so
// it is not refused for its size) whose body then arrives `bytesPerInterval` bytes every
// `intervalMs`: only a request timeout frees the connection.
import { requestHead, sendPath } from '../attackRequests.ts';
import { attackExchange } from '../attackSocket.ts';
import { defineAttack, MAX_HOLD_MS } from '../defineAttack.ts';

export const slowBody = defineAttack({
  name: 'slow-body',
  family: 'slow',
  description:
    'a send declaring `contentLength` bytes whose body drips `bytesPerInterval` bytes every `intervalMs`, ' +
    'held up to `holdMs`',
  expected: "408 or a close within the agent's request timeout (15 s for the reference agent), before the hold bound",
  defaults: { contentLength: 512 * 1024, bytesPerInterval: 4, intervalMs: 500, holdMs: 30_000 },
  bounds: {
    contentLength: [16, 1024 * 1024 * 1024],
    bytesPerInterval: [1, 65_536],
    intervalMs: [1, 60_000],
    holdMs: [1, MAX_HOLD_MS],
  },
  async prepare(target, params) {
    const head = requestHead(target, 'POST', sendPath(target), { contentLength: params.contentLength });
    // A JSON-RPC-looking start, then one long string: the body stays valid-looking however far it gets.
    const body = Buffer.from(
      `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{"text":"` +
        's'.repeat(params.contentLength),
      'latin1',
    ).subarray(0, params.contentLength);
    return (_i, signal) =>
      attackExchange(target, signal, { holdMs: params.holdMs, what: 'slow body' }, async (io) => {
        if (!(await io.write(head))) return;
        for (let sent = 0; sent < body.length; sent += params.bytesPerInterval) {
          if (!(await io.write(body.subarray(sent, sent + params.bytesPerInterval)))) return;
          if (!(await io.sleep(params.intervalMs))) return;
        }
      });
  },
});
