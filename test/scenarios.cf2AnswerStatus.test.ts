// CF-2 says a valid answer is answered 200. An agent that accepts it with 202 (the answer-202
// fault: the task still resumes, the echo is still there) fails cf2 on that check and on no other.
import { describe, expect, it } from 'vitest';
import { loadScenarios, selectScenarios } from '../rig/engine/scenarioCatalog.ts';
import { runScenarios } from '../rig/engine/runScenarios.ts';
import { pinnedToxiproxy } from './support/proxyBackends.ts';

const all = await loadScenarios();

describe('cf2 and the status of an accepted answer', () => {
  it('fails a 202 on "the accepted answer\'s reply is HTTP 200" alone', { timeout: 120_000 }, async () => {
    const result = await runScenarios(selectScenarios(all, ['cf2']), {
      profile: 'smoke',
      toxiproxy: pinnedToxiproxy(),
      agentFault: ['answer-202'],
      a2aVersion: 'auto',
    });
    const cf2 = result.scenarios[0]!;
    expect(cf2.verdict, cf2.reason).toBe('failed');
    expect(cf2.checks.filter((c) => !c.ok).map((c) => [c.name, c.detail])).toEqual([
      ["the accepted answer's reply is HTTP 200", 'HTTP 202'],
    ]);
    expect(cf2.checks.find((c) => c.name.startsWith('the valid payload is accepted'))?.ok).toBe(true);
  });
});
