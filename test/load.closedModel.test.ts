// The closed model: autocannon's responses folded into our histogram one for one, at microsecond
// resolution; and the agent-operation requests (send, get, answer) that drive the reference agent,
// classified as a2a outcomes so a throughput run counts valid answers, not just 200s.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, userMessage } from '../rig/client/index.ts';
import {
  answerRequests,
  classifyRpcResponse,
  getTaskRequests,
  sendMessageRequests,
  type ParkedPrompt,
} from '../rig/load/agentOperationRequests.ts';
import { runClosedModel } from '../rig/load/closedModel.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';

describe('closed model (autocannon)', () => {
  let server: Server;
  let url: string;
  let served = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      served++;
      if (req.url === '/missing') res.writeHead(404);
      // Half a millisecond or so of work, so latencies are not all zero.
      const until = performance.now() + 0.3;
      while (performance.now() < until);
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('folds every response autocannon counted into the histogram, in microseconds', async () => {
    const before = served;
    const result = await runClosedModel({ url, connections: 4, amount: 500, requests: [{ method: 'GET', path: '/' }] });
    expect(result.folded).toBe(500);
    expect(result.autocannonCompleted).toBe(500);
    expect(result.latency.count).toBe(500);
    expect(served - before).toBe(500);
    expect(result.outcomes).toEqual({ '2xx': 500 });
    expect(result.errors).toBe(0);
    // Sub-millisecond resolution: autocannon's own histogram has whole milliseconds only.
    const p50 = result.latency.percentileUs(50);
    expect(p50).toBeGreaterThan(0);
    expect(p50 % 1000).not.toBe(0);
    expect(result.perSecond).toBeGreaterThan(0);
    expect(result.elapsedMs).toBeGreaterThan(0);
  });

  it('runs for a duration and classifies responses', async () => {
    const result = await runClosedModel({
      url,
      connections: 2,
      durationSeconds: 1,
      requests: [
        { method: 'GET', path: '/' },
        { method: 'GET', path: '/missing' },
      ],
      classify: (status, body) => `${status} ${body}`,
    });
    expect(result.folded).toBe(result.autocannonCompleted);
    expect(result.folded).toBeGreaterThan(50);
    expect(Object.keys(result.outcomes).sort()).toEqual(['200 ok', '404 ok']);
    expect(result.outcomes['200 ok'] + result.outcomes['404 ok']).toBe(result.folded);
    expect(Math.abs(result.outcomes['200 ok'] - result.outcomes['404 ok'])).toBeLessThanOrEqual(2);
  });

  it('refuses an unbounded run', async () => {
    await expect(runClosedModel({ url, connections: 1, requests: [{}] })).rejects.toThrow(/bounded/);
  });
});

describe('agent operations against the reference agent', () => {
  let agent: Awaited<ReturnType<typeof inProcessAgent>>;
  let client: A2AClient;

  beforeAll(async () => {
    agent = await inProcessAgent();
    client = await A2AClient.open(agent.url);
  });
  afterAll(async () => {
    await client?.close();
    await agent?.cleanup();
  });

  async function park(n: number): Promise<ParkedPrompt[]> {
    const parked: ParkedPrompt[] = [];
    for (let i = 0; i < n; i++) {
      const sent = await client.send(userMessage({ text: 'closed-model test' }));
      if (!sent.ok || !('task' in sent.value)) throw new Error('the agent did not create a task');
      const prompt = client.promptOf(sent.value.task);
      if (!prompt?.ok) throw new Error('no usable prompt');
      parked.push({ taskId: sent.value.task.id, promptId: prompt.envelope.prompt_id, payload: { approved: true } });
    }
    return parked;
  }

  it('answers each parked prompt once: all accepted; the same answers again: all 409', async () => {
    const prompts = await park(60);
    const target = client.agent;
    const first = await runClosedModel({
      url: agent.url,
      connections: 4,
      amount: prompts.length,
      requests: answerRequests(target, prompts),
      classify: classifyRpcResponse,
    });
    expect(first.outcomes).toEqual({ accepted: 60 });
    for (const p of prompts.slice(0, 5)) {
      const task = await client.getTask(p.taskId);
      expect(task.ok && task.value.status.state).not.toBe('TASK_STATE_INPUT_REQUIRED');
    }
    const again = await runClosedModel({
      url: agent.url,
      connections: 4,
      amount: prompts.length,
      requests: answerRequests(target, prompts),
      classify: classifyRpcResponse,
    });
    expect(again.outcomes).toEqual({ conflict: 60 });
  });

  it("sends new tasks and gets a task, in the agent's wire generation", async () => {
    const [prompt] = await park(1);
    const target = client.agent;
    const gets = await runClosedModel({
      url: agent.url,
      connections: 2,
      amount: 40,
      requests: getTaskRequests(target, prompt.taskId),
      classify: classifyRpcResponse,
    });
    expect(gets.outcomes).toEqual({ accepted: 40 });
    const sends = await runClosedModel({
      url: agent.url,
      connections: 2,
      amount: 20,
      requests: sendMessageRequests(target),
      classify: classifyRpcResponse,
    });
    expect(sends.outcomes).toEqual({ accepted: 20 });
    const unknown = await runClosedModel({
      url: agent.url,
      connections: 1,
      amount: 3,
      requests: getTaskRequests(target, 'no-such-task'),
      classify: classifyRpcResponse,
    });
    expect(unknown.outcomes).toEqual({ 'error -32001': 3 });
  });

  it('speaks v0.3 too', async () => {
    const [prompt] = await park(1);
    const old = { ...client.agent, generation: '0.3' as const };
    const result = await runClosedModel({
      url: agent.url,
      connections: 1,
      amount: 1,
      requests: answerRequests(old, [prompt]),
      classify: classifyRpcResponse,
    });
    expect(result.outcomes).toEqual({ accepted: 1 });
  });
});
