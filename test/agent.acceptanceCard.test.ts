// The acceptance extension's declaration and activation: the card entry in both generations'
// cards (required: false, params with the evaluators, supportsArtifactSchema and maxRejectionsCap),
// the echo of exactly what a request activated, the script's `attempts`, and the agent's --help
// naming every acceptance-* fault flag.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS } from '../rig/agent/faults.ts';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import { stateOf } from './support/rpcClient.ts';
import { ACCEPT, ACCEPTANCE_URI, REJECT, createGated, decide, taskIn } from './support/acceptanceClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const ENTRY = {
  uri: ACCEPTANCE_URI,
  description: expect.any(String),
  required: false,
  params: { evaluators: ['client', 'agent', 'human'], supportsArtifactSchema: true, maxRejectionsCap: 10 },
};

describe('declaration', () => {
  it.each([['1.0'], ['0.3']])('the %s card declares the extension beside hitl-prompt/v1', async (version) => {
    const card = await (
      await fetch(`${agent.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': version } })
    ).json();
    expect(card.capabilities.extensions).toEqual([expect.objectContaining({ uri: HITL }), ENTRY]);
  });

  it('echoes exactly the extensions a request activated', async () => {
    const alone = await createGated(agent.url, '1.0');
    expect(alone.headers.get('A2A-Extensions')).toBe(ACCEPTANCE_URI);
    const together = await createGated(agent.url, '1.0', {}, { hitl: true });
    expect(together.headers.get('A2A-Extensions')?.split(', ').sort()).toEqual([ACCEPTANCE_URI, HITL].sort());
  });

  it('lists every acceptance-* fault flag in `agent --help`', async () => {
    // Asynchronous: a synchronous spawn would stall the in-process agent's keep-alive sockets.
    const help = await promisify(execFile)(
      process.execPath,
      [new URL('../bin/a2a-rig.js', import.meta.url).pathname, 'agent', '--help'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    const flags = Object.keys(FAULTS).filter((f) => f.startsWith('acceptance-'));
    expect(flags).toHaveLength(10);
    for (const flag of flags) expect(help.stdout.replace(/\s+/g, ' ')).toContain(flag);
  });
});

describe('script attempts', () => {
  it('a third attempt emits the last entry of `attempts` again', async () => {
    const attempts = [[{ artifact: { name: 'r', text: 'one' } }], [{ artifact: { name: 'r', text: 'two' } }]];
    const task = taskIn('1.0', await createGated(agent.url, '1.0', { steps: [{ complete: {} }], attempts }));
    await decide(agent.url, '1.0', task.id, REJECT);
    const third = taskIn('1.0', await decide(agent.url, '1.0', task.id, REJECT));
    expect(third.artifacts.map((a: any) => a.parts[0].text)).toEqual(['one', 'two', 'two']);
    expect(stateOf('1.0', taskIn('1.0', await decide(agent.url, '1.0', task.id, ACCEPT)))).toBe('TASK_STATE_COMPLETED');
  });

  it.each([
    ['a non-artifact step', [[{ complete: {} }]]],
    ['an empty list', []],
    ['more entries than attempts can exist', Array.from({ length: 12 }, () => [])],
  ])('refuses attempts with %s', async (_what, attempts) => {
    const reply = await createGated(agent.url, '1.0', { attempts });
    expect(reply.body.error.code).toBe(-32602);
    expect(reply.body.error.message).toContain('attempts');
  });
});
