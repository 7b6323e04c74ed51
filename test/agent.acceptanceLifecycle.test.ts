// The acceptance gate's transitions in the reference agent, in both wire generations (JSON-RPC):
// artifacts then pending, accept → COMPLETED, reject with retry → feedback in history, WORKING on
// the same task and context, a new attempt with its own artifacts, pending again; past
// maxRejections → FAILED; retry:false → FAILED; a non-decision message leaves the task pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { stateOf, type Gen } from './support/rpcClient.ts';
import {
  ACCEPT,
  ACCEPTANCE_URI,
  PENDING_KEY,
  REJECT,
  call,
  createGated,
  decide,
  fetchTask,
  isPending,
  taskIn,
} from './support/acceptanceClient.ts';
import { METHOD, userMessage } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const ATTEMPTS = [
  [{ artifact: { name: 'result', text: 'bad attempt' } }],
  [{ artifact: { name: 'result', text: 'good attempt' } }],
];
const textsOf = (task: any) => task.artifacts.map((a: any) => a.parts[0].text);

describe.each(['1.0', '0.3'] as Gen[])('acceptance gate over JSON-RPC %s', (gen) => {
  it('emits the artifacts, then parks pending with the key and the URI in extensions; accept completes', async () => {
    const created = await createGated(agent.url, gen, { criteria: { description: 'a draft' } });
    expect(created.status).toBe(200);
    expect(created.headers.get(gen === '1.0' ? 'A2A-Extensions' : 'X-A2A-Extensions')).toContain(ACCEPTANCE_URI);
    const task = taskIn(gen, created);
    expect(stateOf(gen, task)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(isPending(task)).toBe(true);
    expect(task.status.message.extensions).toEqual([ACCEPTANCE_URI]);
    expect(textsOf(task)).toEqual(['first draft']);

    const accepted = await decide(agent.url, gen, task.id, ACCEPT, { feedback: 'looks right' });
    expect(accepted.status).toBe(200);
    const done = taskIn(gen, accepted);
    expect(stateOf(gen, done)).toBe('TASK_STATE_COMPLETED');
    expect(isPending(done)).toBe(false);
    expect(stateOf(gen, await fetchTask(agent.url, gen, task.id))).toBe('TASK_STATE_COMPLETED');
  });

  it('reject with retry: feedback in history, same task and context, attempt 2 artifacts, pending again', async () => {
    const first = taskIn(gen, await createGated(agent.url, gen, { attempts: ATTEMPTS }));
    expect(textsOf(first)).toEqual(['first draft', 'bad attempt']);
    const rejected = await decide(agent.url, gen, first.id, REJECT, { feedback: 'too vague, add numbers' });
    expect(rejected.status).toBe(200);
    const again = taskIn(gen, rejected);
    expect(again.id).toBe(first.id);
    expect(again.contextId).toBe(first.contextId);
    expect(stateOf(gen, again)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(isPending(again)).toBe(true);
    expect(textsOf(again)).toEqual(['first draft', 'bad attempt', 'good attempt']);
    const history = (await fetchTask(agent.url, gen, first.id)).history;
    const feedback = history.find((m: any) => m.parts.some((p: any) => p.text === 'too vague, add numbers'));
    expect(feedback?.metadata?.[`${ACCEPTANCE_URI}/decision`]).toEqual(REJECT);
    expect(stateOf(gen, taskIn(gen, await decide(agent.url, gen, first.id, ACCEPT)))).toBe('TASK_STATE_COMPLETED');
  });

  it('fails on the rejection past maxRejections', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen, { criteria: { maxRejections: 1 } }));
    expect(stateOf(gen, taskIn(gen, await decide(agent.url, gen, task.id, REJECT)))).toBe('TASK_STATE_INPUT_REQUIRED');
    const last = taskIn(gen, await decide(agent.url, gen, task.id, REJECT));
    expect(stateOf(gen, last)).toBe('TASK_STATE_FAILED');
    expect(isPending(last)).toBe(false);
  });

  it('fails at once on retry: false', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen));
    const failed = taskIn(gen, await decide(agent.url, gen, task.id, { ...REJECT, retry: false }));
    expect(stateOf(gen, failed)).toBe('TASK_STATE_FAILED');
    const history = (await fetchTask(agent.url, gen, task.id)).history;
    expect(history.some((m: any) => m.parts.some((p: any) => p.text === 'decision'))).toBe(true);
  });

  it('leaves the task pending on a message that is not a decision', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen));
    const reply = await call(agent.url, gen, METHOD[gen].send, {
      message: userMessage(gen, { taskId: task.id, text: 'any news?' }),
    });
    expect(reply.status).toBe(200);
    const after = taskIn(gen, reply);
    expect(stateOf(gen, after)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(after.status.message.metadata[PENDING_KEY]).toBe(true);
    // A decision without activation is a plain message too.
    const plain = await decide(agent.url, gen, task.id, ACCEPT, { acceptance: false });
    expect(stateOf(gen, taskIn(gen, plain))).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it(
    'refuses a malformed decision (-32044) and one for a task that is not pending (-32042), ' +
      'both with HTTP 200 and {extension, reason}',
    async () => {
      const task = taskIn(gen, await createGated(agent.url, gen));
      const malformed = await decide(agent.url, gen, task.id, { action: 'reject' });
      expect(malformed.status).toBe(200);
      expect(malformed.body.error.code).toBe(-32044);
      expect(malformed.body.error.data.extension).toBe(ACCEPTANCE_URI);
      await decide(agent.url, gen, task.id, ACCEPT);
      const late = await decide(agent.url, gen, task.id, REJECT);
      expect(late.status).toBe(200);
      expect(late.body.error.code).toBe(-32042);
      expect(late.body.error.data).toMatchObject({ extension: ACCEPTANCE_URI, reason: expect.any(String) });
    },
  );

  it('cancels a pending task: the gate is closed and a decision after is a conflict', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen));
    const canceled = await call(agent.url, gen, METHOD[gen].cancel, { id: task.id });
    expect(stateOf(gen, canceled.body.result)).toBe('TASK_STATE_CANCELED');
    expect((await decide(agent.url, gen, task.id, ACCEPT)).body.error.code).toBe(-32042);
  });

  it(
    'a client that does not activate the extension sees plain WORKING → COMPLETED, ' + 'criteria ignored, no echo',
    async () => {
      const reply = await createGated(agent.url, gen, { criteria: { evaluator: 'nobody' } }, { acceptance: false });
      const task = taskIn(gen, reply);
      expect(stateOf(gen, task)).toBe('TASK_STATE_COMPLETED');
      expect(reply.headers.get('A2A-Extensions')).toBeNull();
    },
  );

  it('refuses invalid criteria with -32040 and creates no task', async () => {
    const before = (await call(agent.url, '1.0', 'ListTasks', {})).body.result.totalSize;
    const reply = await createGated(agent.url, gen, { criteria: { evaluator: 'nobody' } });
    expect(reply.body.error.code).toBe(-32040);
    expect(reply.body.error.data.extension).toBe(ACCEPTANCE_URI);
    expect((await call(agent.url, '1.0', 'ListTasks', {})).body.result.totalSize).toBe(before);
  });
});
