// Issue 9 item 11: event-stream readers that never read, on a task whose history is big, must not
// grow the agent's memory without bound nor stall it; a commit must not cost more on a big task;
// open streams are bounded; a task's history is bounded with a clear refusal. The attacks run
// against a child agent (its VmRSS is read from /proc) on loopback, bounded in count and time.
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent, spawnAgent, type AgentChild } from './support/agentFixture.ts';
import { judgeTax } from '../rig/engine/dos/dosVerdicts.ts';
import {
  answer,
  judgeResponsiveness,
  median,
  nonReadingRpc,
  promptingTask,
  rssMb,
  watchDuring,
} from './support/hostileClients.ts';
import { processAlive } from './support/localHost.ts';
import { answerMessage, envelopeOf, headersFor, replay, rpc } from './support/rpcClient.ts';

/** The agent's RSS must stay under this during the attack (the issue saw gigabytes: docs/testing.md). */
const RSS_CEILING_MB = 400;
const BIG_ANSWER = 'x'.repeat(900_000);
const BIG_ANSWERS = 14; // ~12.6 MB of history

let agent: AgentChild;
let big: { taskId: string; promptId: string };
const sockets: Socket[] = [];

beforeAll(async () => {
  agent = await spawnAgent([]);
  big = await promptingTask(agent.url, 40);
  for (let i = 0; i < BIG_ANSWERS; i++)
    big.promptId = (await answer(agent.url, big.taskId, big.promptId, BIG_ANSWER)).promptId;
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.destroy();
  agent?.child.kill('SIGKILL');
  await agent?.exited;
});

describe('a big task (item 11)', () => {
  it('answers as fast on a task with ~12 MB of history as on a fresh one', async () => {
    const fresh = await promptingTask(agent.url, 10);
    // Pairs taken back to back, so that what slows the machine slows both sides of a pair alike.
    const pairs: Array<{ burst: number[]; control: number[] }> = [];
    for (let i = 0; i < 7; i++) {
      const a = await answer(agent.url, fresh.taskId, fresh.promptId, 'ok');
      fresh.promptId = a.promptId;
      const b = await answer(agent.url, big.taskId, big.promptId, 'ok');
      big.promptId = b.promptId;
      pairs.push({ burst: [b.ms], control: [a.ms] });
    }
    // The ~12 MB task's answer over the fresh task's, with its 95 % interval over the pairs: failed
    // only when the whole interval is above 3x (or the fresh median plus 50 ms), never on a guess.
    const slower = judgeTax(pairs, { maxTax: 3, taxFloorMs: 50 });
    const fmt = (side: 'burst' | 'control') => median(pairs.map((p) => p[side][0]!)).toFixed(1);
    console.log(
      `answer latency median: fresh task ${fmt('control')} ms, ~12 MB task ${fmt('burst')} ms; ` +
        `${slower.detail}: ${slower.outcome}`,
    );
    expect(slower.outcome, slower.detail).not.toBe('failed');
  }, 60_000);

  it('60 readers that never read: the agent stays up, answers its card fast and keeps RSS bounded', async () => {
    const before = rssMb(agent.pid);
    const attack = (async () => {
      for (let i = 0; i < 60; i++) sockets.push(await nonReadingRpc(agent.url, 'SubscribeToTask', { id: big.taskId }));
      // Events flow to the readers while they do not read.
      for (let i = 0; i < 3; i++)
        big.promptId = (await answer(agent.url, big.taskId, big.promptId, 'y'.repeat(100_000))).promptId;
    })();
    const seen = await watchDuring(agent.url, agent.pid, attack, { tailMs: 1_500 });
    const responsive = judgeResponsiveness(seen.probeList);
    console.log(
      `60 non-reading readers: RSS ${before.toFixed(0)} MB before, peak ${seen.peakRssMb.toFixed(0)} MB; ` +
        `card probes p90 ${seen.p90ProbeMs.toFixed(1)} ms, worst ${seen.worstProbeMs.toFixed(1)} ms ` +
        `over ${seen.probes} probes; ${responsive.detail}: ${responsive.verdict}`,
    );
    expect(processAlive(agent.pid)).toBe(true);
    // Held, or not judged where the machine's load hides the answer: never broken.
    expect(responsive.verdict, responsive.detail).not.toBe('broken');
    expect(seen.peakRssMb).toBeLessThan(RSS_CEILING_MB);
    for (const s of sockets.splice(0)) s.destroy();
  }, 90_000);

  it('a stream snapshot of the big task carries a bounded history, newest last', async () => {
    const got = await rpc(agent.url, '1.0', 'GetTask', { id: big.taskId });
    const text = JSON.stringify(got.body);
    expect(Buffer.byteLength(text)).toBeLessThan(512 * 1024);
    const history = got.body.result.history as Array<{ messageId: string }>;
    expect(history.length).toBeGreaterThan(0);
    expect(got.body.result.status.message.messageId).toBe(history.at(-1)!.messageId);
  });
});

describe('open streams are bounded (item 11)', () => {
  it(
    'refuses the 33rd stream on a task with -32029 (SSE) ' + 'and 1013 (replay socket), and frees slots on close',
    async () => {
      const task = await promptingTask(agent.url, 2);
      const opened: AbortController[] = [];
      // The Responses are kept reachable: undici cancels the body of a Response collected unread,
      // which would free a slot and serve the "33rd" as a live stream (agent.streamSlotsCollected).
      const readers: Response[] = [];
      try {
        // Each reader waits for its response headers (the slot is taken before them), then never reads.
        for (let i = 0; i < 32; i++) {
          const abort = new AbortController();
          opened.push(abort);
          const res = await fetch(agent.url, {
            method: 'POST',
            headers: { ...headersFor('1.0'), accept: 'text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'SubscribeToTask', params: { id: task.taskId } }),
            signal: abort.signal,
          });
          expect(res.headers.get('content-type')).toContain('text/event-stream');
          readers.push(res);
        }
        const refused = await rpc(agent.url, '1.0', 'SubscribeToTask', { id: task.taskId });
        expect(refused.body.error?.code).toBe(-32029);
        expect(refused.body.error?.message).toContain('open event streams');
        const socket = await replay(agent.url, task.taskId, 0, { timeoutMs: 3_000 });
        expect(socket.closeCode).toBe(1013);
        for (const a of opened.splice(0)) a.abort();
        readers.length = 0;
        // The agent frees a slot when it sees the close; poll (bounded) until a replay socket is served.
        const deadline = performance.now() + 5_000;
        let served = await replay(agent.url, task.taskId, 0, { until: (f) => f.length >= 1, timeoutMs: 1_000 });
        while (served.frames.length === 0 && performance.now() < deadline) {
          served = await replay(agent.url, task.taskId, 0, { until: (f) => f.length >= 1, timeoutMs: 1_000 });
        }
        expect(served.frames.length).toBeGreaterThan(0);
      } finally {
        for (const a of opened) a.abort();
      }
    },
    30_000,
  );
});

describe('a task accumulates a bounded history (item 11)', () => {
  it('refuses an answer past the history bound with -32602 and a reason; the prompt stays open', async () => {
    const small = await inProcessAgent([], { maxHistoryBytes: 250_000 });
    try {
      const task = await promptingTask(small.url, 3);
      const first = await answer(small.url, task.taskId, task.promptId, 'z'.repeat(150_000));
      const refused = await rpc(small.url, '1.0', 'SendMessage', {
        message: answerMessage('1.0', task.taskId, first.promptId, { s: 'z'.repeat(150_000) }),
      });
      expect(refused.body.error?.code).toBe(-32602);
      expect(refused.body.error?.message).toMatch(/accepts at most \d+ messages and 250000 bytes of history/);
      const still = await rpc(small.url, '1.0', 'GetTask', { id: task.taskId, historyLength: 0 });
      expect(envelopeOf(still.body.result).prompt_id).toBe(first.promptId);
      await answer(small.url, task.taskId, first.promptId, 'short');
    } finally {
      await small.cleanup();
    }
  });
});
