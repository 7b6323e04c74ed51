// The named attacks on a prompt's answer (rig/attack/attackRegistry.ts: oversized, deep, backtracking,
// duplicate and unknown-prompt answers) against the in-process reference agent get the refusal they
// expect; against a deliberately unprotected tiny server the same attack is accepted, so every
// expectation below can fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKS } from '../rig/attack/attackRegistry.ts';
import { attackTarget, scriptedPromptOpener } from '../rig/attack/attackTarget.ts';
import type { AttackTarget, LivePrompt } from '../rig/attack/attackTypes.ts';
import { PATTERN_SCHEMA, attack, kinds, startAttackTargets, type AttackTargets } from './support/attackTargets.ts';

let targets: AttackTargets;
let agentTarget: AttackTarget;
let openTarget: AttackTarget;
beforeAll(async () => {
  targets = await startAttackTargets();
  ({ agentTarget, openTarget } = targets);
});
afterAll(async () => targets?.close());

describe('payload attacks', () => {
  it(
    'oversized-answer: 413 before the body ends from the agent; ' + 'read whole and accepted by the unprotected server',
    async () => {
      const refused = await attack('oversized-answer', agentTarget, { refusalWaitMs: 300 });
      for (const o of refused.outcomes) expect(o).toMatchObject({ kind: 'refused', status: 413, beforeBodyEnd: true });
      const held = await attack('oversized-answer', openTarget, { refusalWaitMs: 100 });
      for (const o of held.outcomes) expect(o).toMatchObject({ kind: 'accepted', beforeBodyEnd: false });
    },
  );

  it('deep-answer: refused by the nesting bound; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('deep-answer', agentTarget);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', status: 422, code: -32011 });
    expect(kinds((await attack('deep-answer', openTarget)).outcomes)).toEqual(['accepted']);
  });

  it(
    'deep-answer starts nothing, saying why, ' +
      'without a live prompt and a valid payload (a refusal then proves no nesting bound)',
    async () => {
      const noPayload = {
        ...openTarget,
        openPrompt: async (): Promise<LivePrompt> => ({
          taskId: 't',
          promptId: 'p',
          responseSchema: PATTERN_SCHEMA,
          validPayload: undefined,
        }),
      };
      const without = await attack('deep-answer', noPayload, {}, 0);
      expect(without.outcomes).toEqual([]);
      expect(without.report.notes.join(' ')).toMatch(/no valid object payload/);
      const { openPrompt: _none, ...noPrompts } = openTarget;
      const blind = await attack('deep-answer', noPrompts, {}, 0);
      expect(blind.outcomes).toEqual([]);
      expect(blind.report.notes.join(' ')).toMatch(/needs a live prompt/);
    },
  );

  it(
    "pattern-backtracking: aims at the schema's pattern and is refused by the linear matcher; " +
      'accepted by the unprotected server',
    async () => {
      const { outcomes } = await attack('pattern-backtracking', agentTarget, { repeat: 30 });
      for (const o of outcomes) {
        expect(o).toMatchObject({ kind: 'refused', code: -32011 });
        expect(o.latencyMs).toBeLessThan(2000);
      }
      expect(kinds((await attack('pattern-backtracking', openTarget)).outcomes)).toEqual(['accepted']);
    },
  );

  it('pattern-backtracking starts nothing and says so when the schema has no pattern', async () => {
    const plain = {
      ...agentTarget,
      openPrompt: scriptedPromptOpener(agentTarget, { responseSchema: { type: 'object' }, validPayload: {} }),
    };
    const report = await ATTACKS['pattern-backtracking'].run(
      plain,
      {},
      { ratePerSecond: 50, maxRequests: 3, durationMs: 500, signal: new AbortController().signal, onOutcome: () => {} },
    );
    expect(report).toMatchObject({ started: 0, settled: 0 });
    expect(report.notes.join(' ')).toMatch(/no `pattern` keyword/);
  });
});

describe('answer attacks', () => {
  it('duplicate-answers: 409/-32010 for every duplicate; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('duplicate-answers', agentTarget, { prompts: 2 }, 4);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', status: 409, code: -32010 });
    expect(kinds((await attack('duplicate-answers', openTarget, { prompts: 2 })).outcomes)).toEqual(['accepted']);
  });

  it('unknown-prompt: 409/-32010; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('unknown-prompt', agentTarget);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', status: 409, code: -32010 });
    expect(kinds((await attack('unknown-prompt', openTarget)).outcomes)).toEqual(['accepted']);
  });

  it('answer attacks that need a live prompt start nothing without one, and say so', async () => {
    const report = await ATTACKS['unknown-prompt'].run(
      attackTarget({ baseUrl: targets.agent.url }),
      {},
      { ratePerSecond: 50, maxRequests: 3, durationMs: 500, signal: new AbortController().signal, onOutcome: () => {} },
    );
    expect(report.started).toBe(0);
    expect(report.notes.join(' ')).toMatch(/opens no prompts/);
  });
});
