// Every transition of the gate is an event of the task's log: a subscriber (SSE SubscribeToTask)
// sees a reject loop live, and after it disconnects the replay plane hands it the rest in order
// (artifacts before each pending status, the retry's WORKING, the final COMPLETED).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { readSse, replay, sseIterate } from './support/rpcClient.ts';
import {
  ACCEPT,
  PENDING_KEY,
  REJECT,
  accHeaders,
  createGated,
  decide,
  decisionMessage,
  taskIn,
} from './support/acceptanceClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const gen = '1.0' as const;

/** One letter per event: T task, W working, A artifact, P pending, C completed. */
function shape(event: any): string {
  if (event.task) return 'T';
  if (event.artifactUpdate) return 'A';
  const status = event.statusUpdate?.status;
  if (status?.state === 'TASK_STATE_WORKING') return 'W';
  if (status?.state === 'TASK_STATE_INPUT_REQUIRED')
    return status.message?.metadata?.[PENDING_KEY] === true ? 'P' : 'I';
  if (status?.state === 'TASK_STATE_COMPLETED') return 'C';
  return '?';
}

describe('acceptance transitions on the live stream and the replay plane', () => {
  it('streams a reject loop live, then replays every transition after a disconnect', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen));
    const live: string[] = [];
    const stream = sseIterate(agent.url, gen, 'SubscribeToTask', { id: task.id });
    const snapshot = await stream.next();
    expect(snapshot.value.result.task.status.message.metadata[PENDING_KEY]).toBe(true);
    const rejected = decide(agent.url, gen, task.id, REJECT, { feedback: 'again' });
    for await (const frame of stream) {
      live.push(shape(frame.result));
      if (live.at(-1) === 'P') break; // pending again: disconnect
    }
    expect(live).toEqual(['W', 'A', 'P']);
    await rejected;
    await decide(agent.url, gen, task.id, ACCEPT);

    const { frames } = await replay(agent.url, task.id, 0, {
      version: gen,
      until: (fs) => fs.some((f) => shape(f.event) === 'C'),
    });
    expect(frames.map((f) => shape(f.event)).join('')).toBe('TWAPWAPC');
    expect(frames.map((f) => f.seq)).toEqual(frames.map((_, i) => i + 1));
  });

  it('streams a decision sent with SendStreamingMessage: the new attempt, then pending again', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen));
    const res = await fetch(agent.url, {
      method: 'POST',
      headers: accHeaders(gen),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: { message: decisionMessage(gen, task.id, REJECT, 'more') },
      }),
    });
    const frames = (await readSse(res)).map((f) => f.result);
    // The snapshot (taken once the decision committed: WORKING), the new attempt's artifact, pending.
    expect(frames.map(shape).join('')).toBe('TAP');
    expect(frames[0].task.status.state).toBe('TASK_STATE_WORKING');
  });
});
