// The named attacks reach the in-process reference agent in each wire generation (1.0, 0.3) and
// binding (JSON-RPC, HTTP+JSON): answers and malformed bodies get the refusal of their kind, not one
// for a request the agent could not read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attackTarget, scriptedPromptOpener } from '../rig/attack/attackTarget.ts';
import { PATTERN_SCHEMA, attack, startAttackTargets, type AttackTargets } from './support/attackTargets.ts';

let targets: AttackTargets;
beforeAll(async () => {
  targets = await startAttackTargets();
});
afterAll(async () => targets?.close());

describe('wire generations and bindings', () => {
  it(
    'answers and malformed bodies reach the agent in each ' +
      'generation and binding and get the refusal of their kind',
    async () => {
      for (const generation of ['1.0', '0.3'] as const) {
        for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
          const base = attackTarget({ baseUrl: targets.agent.url, generation, binding });
          const target = {
            ...base,
            openPrompt: scriptedPromptOpener(base, { responseSchema: PATTERN_SCHEMA, validPayload: { code: 'aaa' } }),
          };
          const unknown = await attack('unknown-prompt', target, {}, 1);
          // A body the agent could not read as an answer would get -32602/400, not "already answered or unknown".
          expect(unknown.outcomes[0], `${generation} ${binding}`).toMatchObject({ kind: 'refused', status: 409 });
          expect([-32010, 409], `${generation} ${binding}`).toContain(unknown.outcomes[0].code);
          const pattern = await attack('pattern-backtracking', target, {}, 1);
          expect([-32011, 422], `${generation} ${binding}`).toContain(pattern.outcomes[0].code);
          const malformed = await attack('malformed-json', target, {}, 2);
          for (const o of malformed.outcomes) expect([-32700, 400], `${generation} ${binding}`).toContain(o.code);
        }
      }
    },
  );
});
