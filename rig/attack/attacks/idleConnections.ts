// idle-connections: connections opened and never written to, held up to `holdMs`. An agent with a
// connection bound closes those beyond it at once; one with a headers timeout closes the rest then.
import { attackExchange } from '../attackSocket.ts';
import { defineAttack, MAX_HOLD_MS } from '../defineAttack.ts';

export const idleConnections = defineAttack({
  name: 'idle-connections',
  family: 'connections',
  description: 'connections that send nothing, held up to `holdMs`',
  expected:
    'closed by the agent (cut): at once beyond its connection bounds, ' +
    'within its headers timeout (5 s for the reference agent) otherwise',
  defaults: { holdMs: 30_000 },
  bounds: { holdMs: [1, MAX_HOLD_MS] },
  async prepare(target, params) {
    return (_i, signal) =>
      attackExchange(
        target,
        signal,
        { holdMs: params.holdMs, what: 'idle connection', replyIsCut: true },
        async () => {},
      );
  },
});
