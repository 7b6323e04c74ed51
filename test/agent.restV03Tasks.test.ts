// The A2A 0.3 HTTP+JSON binding under /v1/, its task endpoints: get (with `history_length` in the
// query, as the 0.3 TCK's REST client sends it), cancel and subscribe, and the answers they must get.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { restV03Client } from './support/restV03Client.ts';
import { readSse } from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());
const { post, newTask } = restV03Client(() => agent.url);

describe('GET /v1/tasks/{id}', () => {
  it("returns the Task itself, honouring history_length (the TCK's query name) and historyLength", async () => {
    const task = await newTask();
    const res = await fetch(`${agent.url}/v1/tasks/${task.id}?history_length=1`);
    expect(res.status).toBe(200);
    const got = await res.json();
    expect(got).toMatchObject({ id: task.id, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
    expect(got.history).toHaveLength(1);
    expect((await (await fetch(`${agent.url}/v1/tasks/${task.id}?historyLength=0`)).json()).history).toEqual([]);
  });

  it.each(['historyLength=-1', 'history_length=abc', 'historyLength=', 'historyLength=1&history_length=1'])(
    'refuses %s with 400',
    async (query) => {
      const task = await newTask();
      const res = await fetch(`${agent.url}/v1/tasks/${task.id}?${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: 'InvalidParamsError', code: -32602 });
    },
  );

  it('answers an unknown task with 404 TaskNotFoundError', async () => {
    const res = await fetch(`${agent.url}/v1/tasks/definitely-does-not-exist-task-id`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: 'TaskNotFoundError',
      code: -32001,
      message: expect.stringContaining('not found'),
    });
  });
});

describe('POST /v1/tasks/{id}:cancel', () => {
  it('cancels (TASK_STATE_CANCELLED, 0.3 spelling); a second cancel is 409 TaskNotCancelableError', async () => {
    const task = await newTask();
    const res = await post(`/v1/tasks/${task.id}:cancel`);
    expect(res.status).toBe(200);
    expect((await res.json()).status.state).toBe('TASK_STATE_CANCELLED');
    const again = await post(`/v1/tasks/${task.id}:cancel`);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: 'TaskNotCancelableError', code: -32002 });
  });
});

describe('/v1/tasks/{id}:subscribe', () => {
  it('streams a running task (GET, as the proto says) until it ends', async () => {
    const task = await newTask();
    const res = await fetch(`${agent.url}/v1/tasks/${task.id}:subscribe`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = readSse(res);
    // Cancelling ends the task, so the subscription closes with a final status.
    expect((await post(`/v1/tasks/${task.id}:cancel`)).status).toBe(200);
    const frames = await events;
    expect(frames[0].task.id).toBe(task.id);
    expect(frames.at(-1).statusUpdate).toMatchObject({ status: { state: 'TASK_STATE_CANCELLED' }, final: true });
  });

  it('refuses a task that has ended with an HTTP 4xx (POST, as the TCK sends it), not a 200 stream', async () => {
    const task = await newTask();
    await post(`/v1/tasks/${task.id}:cancel`);
    const res = await post(`/v1/tasks/${task.id}:subscribe`, undefined, { accept: 'text/event-stream' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'UnsupportedOperationError', code: -32004 });
    expect((await post('/v1/tasks/nope:subscribe')).status).toBe(404);
  });
});
