// The acceptance gate in the agent's Prometheus metrics: tasks pending a decision (counted in the
// outbox at scrape time) and decisions by outcome (applied, or refused by error).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { ACCEPT, REJECT, createGated, decide, taskIn } from './support/acceptanceClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

async function sample(name: string): Promise<number> {
  const text = await (await fetch(`${agent.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no sample ${name} in /metrics`);
  return Number(line.slice(name.length + 1));
}

const decisions = (outcome: string) => sample(`a2a_agent_acceptance_decisions_total{outcome="${outcome}"}`);

describe('acceptance metrics', () => {
  it('counts pending gates and decisions by outcome', async () => {
    expect(await sample('a2a_agent_pending_acceptances')).toBe(0);
    const [one, two] = await Promise.all([
      createGated(agent.url, '1.0'),
      createGated(agent.url, '1.0', {}, { token: 'owner' }),
    ]).then((rs) => rs.map((r) => taskIn('1.0', r)));
    expect(await sample('a2a_agent_pending_acceptances')).toBe(2);
    await decide(agent.url, '1.0', one.id, REJECT);
    await decide(agent.url, '1.0', one.id, ACCEPT);
    await decide(agent.url, '1.0', one.id, ACCEPT);
    await decide(agent.url, '1.0', two.id, ACCEPT);
    await decide(agent.url, '1.0', two.id, { action: 'nope' }, { token: 'owner' });
    expect(await sample('a2a_agent_pending_acceptances')).toBe(1);
    expect(await decisions('accepted')).toBe(1);
    expect(await decisions('rejected')).toBe(1);
    expect(await decisions('conflict')).toBe(1);
    expect(await decisions('unauthorized')).toBe(1);
    expect(await decisions('invalid')).toBe(1);
  });
});
