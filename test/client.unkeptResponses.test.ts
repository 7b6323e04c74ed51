// A load's client keeps its unary replies in no history (EventHistory keepResponses: false, what
// ctx.newClient(n, { keepResponses: false }) gives the capacity scenario): they are counted, not
// kept, and neither are their connections, while streams are kept as ever. Every reply is still
// S-2 checked: an agent that emits an oversized schema has its prompt flagged as malformed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_KEY } from '../rig/agent/script.ts';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { EventHistory } from '../rig/client/eventHistory.ts';
import { userMessage } from '../rig/client/outgoingMessage.ts';
import type { StreamResponse } from '../rig/protocol/a2aTypes.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';

const event = (taskId: string): StreamResponse => ({
  statusUpdate: { taskId, contextId: 'c', status: { state: 'TASK_STATE_WORKING', timestamp: '' } },
});

describe('EventHistory with keepResponses false', () => {
  it('counts unary replies without keeping them or their connections; keeps streams', () => {
    const history = new EventHistory({}, false);
    const ids = [history.openConnection('response', 't1'), history.openConnection('response', 't1')];
    expect(ids).toEqual(['response-1', 'response-2']);
    const entry = (connectionId: string, kind: 'response' | 'sse') => ({
      connectionId,
      kind,
      taskId: 't1',
      seq: undefined,
      eventId: undefined,
      receivedAt: performance.now(),
      event: event('t1'),
    });
    expect(history.record(entry(ids[0]!, 'response'))).toBeUndefined();
    history.closeConnection(ids[0]!, 'response');
    const sse = history.openConnection('sse', 't1');
    expect(history.record(entry(sse, 'sse'))).toMatchObject({ index: 0, kind: 'sse' });
    expect(history.entries().map((e) => e.kind)).toEqual(['sse']);
    expect(history.connections().map((c) => c.connectionId)).toEqual(['sse-1']);
    expect(history.connection(ids[0]!)).toBeUndefined();
    expect([history.unkeptResponses, history.dropped]).toEqual([1, 0]);
  });

  it('keeps replies by default', () => {
    const history = new EventHistory();
    const id = history.openConnection('response', 't1');
    history.record({
      connectionId: id,
      kind: 'response',
      taskId: 't1',
      seq: undefined,
      eventId: undefined,
      receivedAt: 0,
      event: event('t1'),
    });
    expect([history.size, history.unkeptResponses, history.connections().length]).toEqual([1, 0, 1]);
  });
});

describe('a client whose replies are not kept', () => {
  let agent: Awaited<ReturnType<typeof inProcessAgent>>;
  beforeAll(async () => {
    agent = await inProcessAgent(['emit-oversized-schema']);
  });
  afterAll(async () => agent?.cleanup());

  it('still checks every reply: an oversized schema is a malformed prompt', async () => {
    const history = new EventHistory({}, false);
    const client = await A2AClient.open(agent.url, { history });
    try {
      const big = { type: 'object', description: 'x'.repeat(70_000) };
      const steps = [{ prompt: { text: 'Big?', response_schema: big } }, { complete: {} }];
      const sent = await client.send(userMessage({ data: { [SCRIPT_KEY]: { steps } } }));
      if (!sent.ok || !('task' in sent.value)) throw new Error(JSON.stringify(sent));
      expect(client.promptOf(sent.value.task)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/bytes serialized; S-2 allows at most 65536/),
      });
      expect([history.size, history.connections().length, history.unkeptResponses]).toEqual([0, 0, 1]);
    } finally {
      await client.close();
    }
  });
});
