// Issue 9 item 11: open event streams are bounded per task and in total; beyond either bound a new
// one is refused (JSON-RPC -32029, HTTP 429 on the HTTP+JSON binding) and a closed one frees its slot.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_LIMITS } from '../rig/agent/agentLimits.ts';
import { StreamQuota } from '../rig/agent/streamQuota.ts';
import { A2AError } from '../rig/protocol/errorCodes.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { promptingTask } from './support/hostileClients.ts';
import { headersFor } from './support/rpcClient.ts';

function refusal(fn: () => unknown): A2AError {
  try {
    fn();
  } catch (err) {
    return err as A2AError;
  }
  throw new Error('expected a refusal');
}

describe('StreamQuota', () => {
  it('bounds streams per task and in total, and a release frees the slot', () => {
    const quota = new StreamQuota({ ...DEFAULT_AGENT_LIMITS, maxStreamsPerTask: 2, maxStreamsTotal: 3 });
    const a1 = quota.acquire('a');
    quota.acquire('a');
    expect(refusal(() => quota.acquire('a'))).toMatchObject({
      code: -32029,
      message: expect.stringContaining('task a already has 2 open event streams (at most 2)'),
    });
    quota.acquire('b');
    expect(refusal(() => quota.acquire('c'))).toMatchObject({
      code: -32029,
      message: expect.stringContaining('serves 3 open event streams (at most 3)'),
    });
    a1();
    a1(); // a second release changes nothing
    quota.acquire('c');
    expect(refusal(() => quota.acquire('d')).code).toBe(-32029);
  });

  it('shares the buffer budget: each stream may queue min(per-stream bound, total budget / open streams)', () => {
    const quota = new StreamQuota({
      ...DEFAULT_AGENT_LIMITS,
      maxStreamBufferBytes: 1_000,
      maxStreamBufferTotalBytes: 3_000,
    });
    expect(quota.bufferBound()).toBe(1_000);
    const releases = ['a', 'b', 'c', 'd', 'e', 'f'].map((t) => quota.acquire(t));
    expect(quota.bufferBound()).toBe(500);
    for (const r of releases.slice(3)) r();
    expect(quota.bufferBound()).toBe(1_000);
  });
});

describe('refusal on the wire', () => {
  it(
    'HTTP+JSON answers 429 to a subscription beyond the bound, ' + 'and serves it once the first stream closes',
    async () => {
      const agent = await inProcessAgent([], { maxStreamsPerTask: 1 });
      try {
        const task = await promptingTask(agent.url, 1);
        const first = new AbortController();
        const open = await fetch(`${agent.url}/tasks/${task.taskId}:subscribe`, {
          headers: headersFor('1.0'),
          signal: first.signal,
        });
        expect(open.status).toBe(200);
        const refused = await fetch(`${agent.url}/tasks/${task.taskId}:subscribe`, {
          headers: headersFor('1.0'),
          signal: AbortSignal.timeout(5_000),
        });
        expect(refused.status).toBe(429);
        // HTTP+JSON errors are AIP-193: the HTTP status is the code, google.rpc's name the status.
        expect((await refused.json()).error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
        first.abort();
        // The agent frees the slot when it sees the close: poll (bounded) until it serves again.
        const deadline = performance.now() + 5_000;
        let status = 0;
        while (status !== 200 && performance.now() < deadline) {
          const again = new AbortController();
          status = (
            await fetch(`${agent.url}/tasks/${task.taskId}:subscribe`, {
              headers: headersFor('1.0'),
              signal: again.signal,
            })
          ).status;
          again.abort();
        }
        expect(status).toBe(200);
      } finally {
        await agent.cleanup();
      }
    },
  );
});
