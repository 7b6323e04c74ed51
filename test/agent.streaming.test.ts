// Streaming in both generations: SSE send streams end at the interrupted state, subscriptions send
// the snapshot first then live events, the replay socket agrees with both, and the extension echo
// is present on streaming responses too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL, inProcessAgent } from './support/inProcessAgent.ts';
import {
  METHOD,
  answerMessage,
  envelopeOf,
  replay,
  rpc,
  rpcStream,
  scriptData,
  sseIterate,
  stateOf,
  taskOf,
  userMessage,
  type Gen,
} from './support/rpcClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent.cleanup());

function kindOf(gen: Gen, result: any): string {
  if (gen === '0.3') return result.kind;
  return Object.keys(result)[0];
}
function statusOf(gen: Gen, result: any): any {
  return gen === '0.3' ? result.status : (result.statusUpdate ?? result.task)?.status;
}

describe.each<Gen>(['0.3', '1.0'])('SSE over JSON-RPC %s', (gen) => {
  it(
    'send stream: task snapshot first, then working and the prompt; ' + 'closes at INPUT_REQUIRED; echo header present',
    async () => {
      const { status, headers, events } = await rpcStream(agent.url, gen, METHOD[gen].stream, {
        message: userMessage(gen),
      });
      expect(status).toBe(200);
      expect(headers.get('a2a-extensions')).toBe(HITL);
      const results = events.map((e) => e.result);
      expect(results.map((r) => kindOf(gen, r))).toEqual(
        gen === '0.3' ? ['task', 'status-update', 'status-update'] : ['task', 'statusUpdate', 'statusUpdate'],
      );
      expect(stateOf(gen, { status: statusOf(gen, results[1]) })).toBe('TASK_STATE_WORKING');
      const last = results[2];
      expect(stateOf(gen, { status: statusOf(gen, last) })).toBe('TASK_STATE_INPUT_REQUIRED');
      if (gen === '0.3') expect(last.final).toBe(true);
      expect(envelopeOf({ status: statusOf(gen, last) }).prompt).toBe('Approve?');
    },
  );

  it('answer over a send stream: resumes, emits the artifact, ends at COMPLETED', async () => {
    const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen) });
    const task = taskOf(gen, sent.body.result);
    const promptId = envelopeOf(task).prompt_id;
    const { events } = await rpcStream(agent.url, gen, METHOD[gen].stream, {
      message: answerMessage(gen, task.id, promptId, { approved: true, comment: 'ok' }),
    });
    const results = events.map((e) => e.result);
    expect(kindOf(gen, results[0])).toBe('task');
    const states = results
      .filter((r) => kindOf(gen, r) !== 'task' && statusOf(gen, r))
      .map((r) => stateOf(gen, { status: statusOf(gen, r) }));
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(results.some((r) => kindOf(gen, r) === (gen === '0.3' ? 'artifact-update' : 'artifactUpdate'))).toBe(true);
  });

  it('subscribe: snapshot first, then the live resume, ends at the terminal state', async () => {
    const script = scriptData([
      {
        prompt: {
          text: 'Name?',
          response_schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        },
      },
      { work: { ms: 20 } },
      { complete: {} },
    ]);
    const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen, { data: script }) });
    const task = taskOf(gen, sent.body.result);
    const promptId = envelopeOf(task).prompt_id;
    const results: any[] = [];
    for await (const event of sseIterate(agent.url, gen, METHOD[gen].subscribe, { id: task.id })) {
      results.push(event.result);
      if (results.length === 1) {
        // The snapshot arrived, so the subscription is live: now answer.
        const answered = await rpc(agent.url, gen, METHOD[gen].send, {
          message: answerMessage(gen, task.id, promptId, { name: 'x' }),
          configuration: { blocking: false, returnImmediately: true },
        });
        expect(answered.status).toBe(200);
      }
    }
    expect(kindOf(gen, results[0])).toBe('task');
    const states = results.slice(1).map((r) => stateOf(gen, { status: statusOf(gen, r) }));
    expect(states.at(-1)).toBe('TASK_STATE_COMPLETED');
  });

  it('subscribe to a terminal task is UnsupportedOperation (-32004)', async () => {
    const sent = await rpc(agent.url, gen, METHOD[gen].send, {
      message: userMessage(gen, { data: scriptData([{ complete: {} }]) }),
    });
    const task = taskOf(gen, sent.body.result);
    const { events } = await rpcStream(agent.url, gen, METHOD[gen].subscribe, { id: task.id });
    expect(events[0].error.code).toBe(-32004);
  });
});

describe('replay plane', () => {
  it(
    'replays every stored event from since, in order, ' + 'gap-free from 1, then live ones; closes at terminal',
    async () => {
      const gen: Gen = '1.0';
      const sent = await rpc(agent.url, gen, METHOD[gen].send, { message: userMessage(gen) });
      const task = taskOf(gen, sent.body.result);
      const first = await replay(agent.url, task.id, 0, { version: '1.0', until: (f) => f.length >= 3 });
      expect(first.frames.map((f) => f.seq)).toEqual([1, 2, 3]);
      expect(Object.keys(first.frames[0].event)).toEqual(['task']);
      expect(first.frames[2].event.statusUpdate.status.message.metadata[HITL].prompt_id).toBe(
        envelopeOf(task).prompt_id,
      );

      const tail = replay(agent.url, task.id, 2, { version: '1.0' });
      await rpc(agent.url, gen, METHOD[gen].send, {
        message: answerMessage(gen, task.id, envelopeOf(task).prompt_id, { approved: false }),
      });
      const { frames, closeCode } = await tail;
      expect(frames.map((f) => f.seq)).toEqual([3, 4, 5, 6]);
      expect(frames.every((f) => f.taskId === task.id && /^[0-9a-f-]{36}$/.test(f.eventId))).toBe(true);
      expect(closeCode).toBe(1000);
    },
  );

  it('speaks v0.3 shapes without a version, and refuses unknown tasks and bad cursors with close codes', async () => {
    const sent = await rpc(agent.url, '0.3', METHOD['0.3'].send, { message: userMessage('0.3') });
    const { frames } = await replay(agent.url, sent.body.result.id, 0, { until: (f) => f.length >= 3 });
    expect(frames[1].event.kind).toBe('status-update');
    expect(frames[2].event.status.state).toBe('input-required');
    expect((await replay(agent.url, 'no-such-task', 0)).closeCode).toBe(4404);
    expect((await replay(agent.url, sent.body.result.id, -1 as number)).closeCode).toBe(4400);
  });
});
