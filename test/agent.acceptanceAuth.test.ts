// Decisions are authorized: only the task's creator (same bearer token, or anonymous for an
// anonymous creator) or a principal its creating message names in metadata["a2a-rig/deciders"]
// (sha256 hex of the token) may decide. Others get -32043 (HTTP 200 on JSON-RPC) and the task stays pending.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { stateOf, type Gen } from './support/rpcClient.ts';
import {
  ACCEPT,
  ACCEPTANCE_URI,
  REJECT,
  createGated,
  decide,
  fetchTask,
  isPending,
  taskIn,
} from './support/acceptanceClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

describe.each(['1.0', '0.3'] as Gen[])('decision authorization over JSON-RPC %s', (gen) => {
  it('refuses another token and an anonymous caller with -32043; the creator decides', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen, {}, { token: 'alice-token' }));
    for (const opts of [{ token: 'mallory-token' }, {}]) {
      const refused = await decide(agent.url, gen, task.id, ACCEPT, opts);
      expect(refused.status).toBe(200);
      expect(refused.body.error.code).toBe(-32043);
      expect(refused.body.error.data.extension).toBe(ACCEPTANCE_URI);
    }
    const still = await fetchTask(agent.url, gen, task.id);
    expect(isPending(still)).toBe(true);
    expect(stateOf(gen, taskIn(gen, await decide(agent.url, gen, task.id, ACCEPT, { token: 'alice-token' })))).toBe(
      'TASK_STATE_COMPLETED',
    );
  });

  it('lets a named decider decide, and no one else', async () => {
    const task = taskIn(
      gen,
      await createGated(agent.url, gen, { deciders: [digest('reviewer-token')] }, { token: 'alice-token' }),
    );
    expect((await decide(agent.url, gen, task.id, REJECT, { token: 'bob-token' })).body.error.code).toBe(-32043);
    expect(stateOf(gen, taskIn(gen, await decide(agent.url, gen, task.id, REJECT, { token: 'reviewer-token' })))).toBe(
      'TASK_STATE_INPUT_REQUIRED',
    );
  });

  it('an anonymously created task refuses a caller with a token', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen));
    expect((await decide(agent.url, gen, task.id, ACCEPT, { token: 'someone' })).body.error.code).toBe(-32043);
    expect(stateOf(gen, taskIn(gen, await decide(agent.url, gen, task.id, ACCEPT)))).toBe('TASK_STATE_COMPLETED');
  });
});
