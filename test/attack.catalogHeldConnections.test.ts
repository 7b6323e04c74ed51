// The named attacks that hold a connection (rig/attack/attackRegistry.ts: slow body, slowloris, idle
// connections) are cut by the in-process reference agent's timeouts; a deliberately unprotected tiny
// server holds them, so every expectation below can fail.
import { once } from 'node:events';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attackTarget } from '../rig/attack/attackTarget.ts';
import type { AttackTarget } from '../rig/attack/attackTypes.ts';
import { attack, kinds, startAttackTargets, type AttackTargets } from './support/attackTargets.ts';

let targets: AttackTargets;
let agentTarget: AttackTarget;
let openTarget: AttackTarget;
beforeAll(async () => {
  targets = await startAttackTargets();
  ({ agentTarget, openTarget } = targets);
});
afterAll(async () => targets?.close());

describe('slow attacks', () => {
  it(
    'slow-body: cut (408 or a close) by the request timeout, ' +
      'well before the hold bound; held by the unprotected server',
    async () => {
      const { outcomes } = await attack('slow-body', agentTarget, { intervalMs: 100, holdMs: 5000 }, 2);
      for (const o of outcomes) {
        expect(o.kind === 'cut' || (o.kind === 'refused' && o.status === 408)).toBe(true);
        expect(o.latencyMs).toBeLessThan(4000);
      }
      expect(kinds((await attack('slow-body', openTarget, { intervalMs: 100, holdMs: 1200 }, 2)).outcomes)).toEqual([
        'held',
      ]);
    },
  );

  it('slowloris: cut by the headers timeout; held by the unprotected server', async () => {
    const { outcomes } = await attack('slowloris', agentTarget, { intervalMs: 50, holdMs: 5000 }, 2);
    for (const o of outcomes) {
      expect(o.kind === 'cut' || (o.kind === 'refused' && o.status === 408)).toBe(true);
      expect(o.latencyMs).toBeLessThan(4000);
    }
    expect(kinds((await attack('slowloris', openTarget, { intervalMs: 50, holdMs: 1200 }, 2)).outcomes)).toEqual([
      'held',
    ]);
  });
});

describe('connection attacks', () => {
  it('idle-connections: cut by the agent; held by the unprotected server', async () => {
    const { outcomes } = await attack('idle-connections', agentTarget, { holdMs: 5000 });
    for (const o of outcomes) {
      expect(o.kind).toBe('cut');
      expect(o.latencyMs).toBeLessThan(4000);
    }
    expect(kinds((await attack('idle-connections', openTarget, { holdMs: 1000 })).outcomes)).toEqual(['held']);
  });

  it('idle-connections: a connection closed right after connect (a connection bound) is a cut at once', async () => {
    const shedding = createNetServer((s) => s.destroy());
    shedding.listen(0, '127.0.0.1');
    await once(shedding, 'listening');
    try {
      const target = attackTarget({ baseUrl: `http://127.0.0.1:${(shedding.address() as { port: number }).port}` });
      const { outcomes } = await attack('idle-connections', target, { holdMs: 3000 });
      for (const o of outcomes) {
        expect(o.kind).toBe('cut');
        expect(o.latencyMs).toBeLessThan(1000);
      }
    } finally {
      await new Promise((r) => shedding.close(r));
    }
  });
});
