// The basic round trip in both wire generations: prompt with envelope, 422 keeps the task parked,
// a valid answer resumes and completes, a second answer is 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent, HITL } from './support/inProcessAgent.ts';
import { METHOD, answerMessage, envelopeOf, rpc, stateOf, taskOf, userMessage, type Gen } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

describe.each<Gen>(['0.3', '1.0'])('round trip over JSON-RPC %s', (gen) => {
  it('parks with an envelope, rejects invalid (422), accepts one valid answer, then 409', async () => {
    const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen) });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('a2a-extensions')).toBe(HITL);
    const task = taskOf(gen, sent.body.result);
    expect(stateOf(gen, task)).toBe('TASK_STATE_INPUT_REQUIRED');
    const envelope = envelopeOf(task);
    expect(envelope.prompt_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(envelope.prompt).toBe('Approve?');
    expect(envelope.response_schema.required).toEqual(['approved']);

    const invalid = await rpc(agent.url, gen, METHOD[gen].send, {
      message: answerMessage(gen, task.id, envelope.prompt_id, { approved: 'yes' }),
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.code).toBe(-32011);
    expect(invalid.body.error.message).toBe('hitl_response_invalid');
    expect(invalid.body.error.data.validation_errors).toEqual([
      { path: '/approved', keyword: 'type', message: 'must be boolean' },
    ]);
    const still = await rpc(agent.url, gen, METHOD[gen].get, { id: task.id });
    expect(stateOf(gen, still.body.result)).toBe('TASK_STATE_INPUT_REQUIRED');

    const valid = await rpc(agent.url, gen, METHOD[gen].send, {
      message: answerMessage(gen, task.id, envelope.prompt_id, { approved: true }),
    });
    expect(valid.status).toBe(200);
    const done = taskOf(gen, valid.body.result);
    expect(stateOf(gen, done)).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(done.artifacts)).toContain('{\\"approved\\":true}');

    const again = await rpc(agent.url, gen, METHOD[gen].send, {
      message: answerMessage(gen, task.id, envelope.prompt_id, { approved: false }),
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: -32010, message: 'hitl_already_answered_or_unknown' });
  });
});
