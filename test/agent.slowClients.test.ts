// Issue 9 item 13: slow clients (Slowloris headers, stalled bodies, silent sockets) are dropped when
// the header/request timeouts say, not at node's next 30 s connection check; long responses (SSE,
// blocking sends) and keep-alive connections are not cut by those timeouts; and the agent answers a
// health probe fast while the attack goes on. Raw TCP clients measure when the agent closes.
import { spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAgent, type AgentChild } from './support/agentFixture.ts';
import { bestProbe, rawExchange, rawSocket } from './support/rawHttp.ts';
import { headersFor, replay, scriptData, userMessage } from './support/rpcClient.ts';

const HEADERS_MS = 1_000;
const REQUEST_MS = 2_000;
/** What a loaded 2-core box may add to a timeout: a check interval (≤ 100 ms here), scheduling. */
const SLACK_MS = 1_500;

let agent: AgentChild;
let port: number;
beforeAll(async () => {
  agent = await spawnAgent(['--headers-timeout-ms', String(HEADERS_MS), '--request-timeout-ms', String(REQUEST_MS)]);
  port = Number(new URL(agent.url).port);
});
afterAll(async () => {
  agent.child.kill('SIGKILL');
  await agent.exited;
});

/** Header lines forever (well, for `lines` × 200 ms): the request never completes its headers. */
function slowlorisChunks(lines: number): string[] {
  return ['GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n', ...Array.from({ length: lines }, (_, i) => `X-Slow-${i}: ${i}\r\n`)];
}

function stalledBody(): string[] {
  return [
    'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
  ];
}

describe('slow clients are dropped on time (issue 9 item 13)', () => {
  it('trickled headers: closed at the headers timeout', async () => {
    const reply = await rawExchange(port, slowlorisChunks(100), { gapMs: 200, boundMs: HEADERS_MS + SLACK_MS + 1_000 });
    expect(reply.closedAfterMs, 'still open').toBeDefined();
    expect(reply.closedAfterMs!).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    expect(reply.closedAfterMs!).toBeLessThan(HEADERS_MS + SLACK_MS);
  });

  it('a stalled body: closed at the request timeout', async () => {
    const reply = await rawExchange(port, stalledBody(), { boundMs: REQUEST_MS + SLACK_MS + 1_000 });
    expect(reply.closedAfterMs, 'still open').toBeDefined();
    expect(reply.closedAfterMs!).toBeGreaterThanOrEqual(REQUEST_MS - 50);
    expect(reply.closedAfterMs!).toBeLessThan(REQUEST_MS + SLACK_MS);
  });

  it('a socket that never sends a byte: closed at the headers timeout too', async () => {
    const reply = await rawExchange(port, [], { boundMs: HEADERS_MS + SLACK_MS + 1_000 });
    expect(reply.closedAfterMs, 'still open').toBeDefined();
    expect(reply.closedAfterMs!).toBeLessThan(HEADERS_MS + SLACK_MS);
  });

  it("the defaults are seconds, not node's minute: trickled headers close within 5 s (+ slack)", async () => {
    const plain = await spawnAgent([]);
    try {
      const reply = await rawExchange(Number(new URL(plain.url).port), slowlorisChunks(100), {
        gapMs: 200,
        boundMs: 5_000 + SLACK_MS + 1_000,
      });
      expect(reply.closedAfterMs, 'still open').toBeDefined();
      expect(reply.closedAfterMs!).toBeGreaterThanOrEqual(5_000 - 50);
      expect(reply.closedAfterMs!).toBeLessThan(5_000 + SLACK_MS);
    } finally {
      plain.child.kill('SIGKILL');
      await plain.exited;
    }
  }, 20_000);

  it(
    'during 100 Slowloris and 100 stalled-body connections ' + 'the agent answers a health probe within 100 ms',
    async () => {
      const attacks = [
        ...Array.from({ length: 100 }, () => rawExchange(port, slowlorisChunks(20), { gapMs: 100, boundMs: 6_000 })),
        ...Array.from({ length: 100 }, () => rawExchange(port, stalledBody(), { boundMs: 6_000 })),
      ];
      const probes: number[] = [];
      let worstBest = 0;
      for (let i = 0; i < 5; i++) {
        await new Promise((r) => setTimeout(r, 150));
        const { best, all } = await bestProbe(agent.url);
        probes.push(...all);
        worstBest = Math.max(worstBest, best);
      }
      const replies = await Promise.all(attacks);
      process.stderr.write(
        `agentSlowClients: probes during 200 slow connections: ${probes.map((p) => p.toFixed(1)).join(', ')} ms\n`,
      );
      expect(worstBest, `probes: ${probes.map((p) => p.toFixed(1)).join(', ')}`).toBeLessThan(100);
      expect(replies.every((r) => r.closedAfterMs !== undefined && r.closedAfterMs < REQUEST_MS + SLACK_MS)).toBe(true);
      expect(agent.child.exitCode).toBeNull();
    },
    20_000,
  );
});

describe('the timeout flags', () => {
  it.each([
    [['--headers-timeout-ms', '5'], 'must be an integer number of milliseconds'],
    [['--request-timeout-ms', 'soon'], 'must be an integer number of milliseconds'],
    [['--headers-timeout-ms', '5000', '--request-timeout-ms', '1000'], 'cannot exceed --request-timeout-ms'],
  ])('%j is a one-line usage error (exit 2)', (args, message) => {
    const run = spawnSync(
      process.execPath,
      [new URL('../bin/a2a-rig.js', import.meta.url).pathname, 'agent', ...args],
      { encoding: 'utf8', timeout: 15_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

// Concurrent: each waits seconds on its own connection, and together they also show the timeouts
// leave long responses alone while other long responses run.
describe.concurrent('what the timeouts must not cut', () => {
  it('an SSE stream that lasts longer than the request timeout runs to its end', async () => {
    const started = performance.now();
    const res = await fetch(`${agent.url}/`, {
      method: 'POST',
      headers: headersFor('1.0'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: {
          message: userMessage('1.0', { data: scriptData([{ work: { ms: REQUEST_MS + 1_500 } }, { complete: {} }]) }),
        },
      }),
    });
    const text = await res.text();
    expect(performance.now() - started).toBeGreaterThan(REQUEST_MS + 1_000);
    expect(text).toContain('TASK_STATE_COMPLETED');
  }, 15_000);

  it('a blocking send that answers after the request timeout is answered', async () => {
    const res = await fetch(`${agent.url}/`, {
      method: 'POST',
      headers: headersFor('1.0'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'SendMessage',
        params: {
          message: userMessage('1.0', { data: scriptData([{ work: { ms: REQUEST_MS + 1_000 } }, { complete: {} }]) }),
        },
      }),
    });
    expect((await res.json()).result.task.status.state).toBe('TASK_STATE_COMPLETED');
  }, 15_000);

  it('a replay WebSocket open longer than the request timeout gets its live events', async () => {
    const res = await fetch(`${agent.url}/`, {
      method: 'POST',
      headers: headersFor('1.0'),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'SendMessage',
        params: {
          message: userMessage('1.0', { data: scriptData([{ work: { ms: REQUEST_MS + 1_000 } }, { complete: {} }]) }),
          configuration: { returnImmediately: true },
        },
      }),
    });
    const taskId = (await res.json()).result.task.id;
    const started = performance.now();
    const got = await replay(agent.url, taskId, 0, { version: '1.0', timeoutMs: REQUEST_MS + 5_000 });
    expect(performance.now() - started).toBeGreaterThan(REQUEST_MS);
    expect(got.closeCode).toBe(1000);
    expect(JSON.stringify(got.frames.at(-1))).toContain('TASK_STATE_COMPLETED');
  }, 15_000);

  it('a keep-alive connection used for longer than the request timeout keeps serving', async () => {
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const reused: boolean[] = [];
    const started = performance.now();
    try {
      while (performance.now() - started < REQUEST_MS + 1_000) {
        reused.push(
          await new Promise<boolean>((resolve, reject) => {
            const req = request(`${agent.url}/.well-known/agent-card.json`, { agent: keepAlive }, (res) => {
              res.resume();
              res.on('end', () => resolve(req.reusedSocket));
            });
            req.on('error', reject);
            req.end();
          }),
        );
        await new Promise((r) => setTimeout(r, 400));
      }
    } finally {
      keepAlive.destroy();
    }
    expect(reused.length).toBeGreaterThan(4);
    expect(reused.slice(1).every(Boolean), `reused: ${reused.join(',')}`).toBe(true);
  }, 15_000);

  it('an idle raw socket between two requests is not cut by the headers timeout while a request is open', async () => {
    // The clock of each request starts at its first byte: a second request after a pause longer
    // than the headers timeout (but shorter than keep-alive's 5 s) is served on the same socket.
    const socket = await rawSocket(port);
    let data = '';
    socket.on('data', (d) => (data += d));
    const ask = 'GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    socket.write(ask);
    await new Promise((r) => setTimeout(r, HEADERS_MS + 500));
    socket.write(ask);
    await new Promise((r) => setTimeout(r, 500));
    socket.destroy();
    expect(data.match(/HTTP\/1\.1 200/g)?.length).toBe(2);
  });
});

describe('after all of the above', () => {
  // Last in the file, seconds after the attacks, so the agent's stderr has long been read.
  it('no client cut by a timeout or gone mid-body was logged as an unexpected error', () => {
    expect(agent.child.exitCode).toBeNull();
    expect(agent.stderr()).not.toContain('unexpected error');
  });
});
