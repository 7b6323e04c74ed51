// The named attacks that send malformed requests (rig/attack/attackRegistry.ts: bad JSON, bad UTF-8,
// huge headers) against the in-process reference agent get the refusal they expect; against a
// deliberately unprotected tiny server the same attack is accepted, so every expectation can fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('malformed attacks', () => {
  it('malformed-json: every variant a -32700 refusal, never a 5xx; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('malformed-json', agentTarget, {}, 6);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', code: -32700 });
    expect(kinds((await attack('malformed-json', openTarget, {}, 6)).outcomes)).toEqual(['accepted']);
  });

  it('bad-utf8: -32700 refusals; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('bad-utf8', agentTarget, {}, 4);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', code: -32700 });
    expect(kinds((await attack('bad-utf8', openTarget, {}, 4)).outcomes)).toEqual(['accepted']);
  });

  it('huge-headers: 431 (or a close); accepted by a server without a header limit', async () => {
    const { outcomes } = await attack('huge-headers', agentTarget);
    for (const o of outcomes) expect(o.kind === 'cut' || (o.kind === 'refused' && o.status === 431)).toBe(true);
    expect(kinds((await attack('huge-headers', openTarget)).outcomes)).toEqual(['accepted']);
  });
});
