// Issue 14 item 4: the optional per-client-IP rate limit. The token bucket (Retry-After, its bounded
// map), and on the wire: 429 + Retry-After in each binding's error shape before the body is read,
// the card and /metrics exempt, the replay plane limited, another address unaffected, off by default.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RATE_BUCKETS, RATE_LIMITED_CODE, RateLimiter } from '../rig/agent/rateLimit.ts';
import { startAgent, type AgentOptions, type RunningAgent } from '../rig/agent/startAgent.ts';
import { ownedAgents, spawnAgent, tempDbPath } from './support/agentFixture.ts';
import { rawExchange } from './support/rawHttp.ts';
import { headersFor } from './support/rpcClient.ts';

describe('RateLimiter (token bucket per client IP)', () => {
  it('grants the burst, then answers whole seconds to wait (≥ 1), and refills at the rate', () => {
    let now = 0;
    const limiter = new RateLimiter({ requestsPerSecond: 1, burst: 2 }, () => now);
    expect(limiter.take('127.0.0.2')).toBeUndefined();
    expect(limiter.take('127.0.0.2')).toBeUndefined();
    expect(limiter.take('127.0.0.2')).toBe(1);
    expect(limiter.take('127.0.0.3')).toBeUndefined(); // another address has its own bucket
    expect(limiter.take('::ffff:127.0.0.2')).toBe(1); // the same client over IPv4-mapped IPv6
    now = 1_000;
    expect(limiter.take('127.0.0.2')).toBeUndefined();
    const slow = new RateLimiter({ requestsPerSecond: 0.25 }, () => now);
    expect(slow.burst).toBe(1);
    expect(slow.take('a')).toBeUndefined();
    expect(slow.take('a')).toBe(4);
    now += 3_500;
    expect(slow.take('a')).toBe(1); // 0.875 token: an eighth of a token at 0.25/s is 0.5 s, said as 1
  });

  it('holds at most MAX_RATE_BUCKETS buckets however many addresses cycle, and drops refilled ones', () => {
    let now = 0;
    const limiter = new RateLimiter({ requestsPerSecond: 10, burst: 5 }, () => now);
    for (let i = 0; i < MAX_RATE_BUCKETS + 5_000; i++)
      limiter.take(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(limiter.size).toBe(MAX_RATE_BUCKETS);
    now += 1_000; // every bucket has refilled: each request now drops up to two of them
    for (let i = 0; i < 1_000; i++) limiter.take('192.0.2.1');
    expect(limiter.size).toBeLessThanOrEqual(MAX_RATE_BUCKETS - 1_000);
  });
});

const owned = ownedAgents();
const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function agentWith(options: Partial<AgentOptions>): Promise<RunningAgent> {
  const db = tempDbPath();
  const agent = await startAgent({ dbPath: db.path, ...options });
  opened.push(async () => {
    await agent.close();
    db.cleanup();
  });
  return agent;
}

/** One request on its own connection from `localAddress`; status, Retry-After and body. */
function send(
  url: string,
  opts: { path?: string; method?: string; body?: string; localAddress?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<{ status: number; retryAfter: string | undefined; body: string }>((resolve, reject) => {
    const req = request(
      `${url}${opts.path ?? '/'}`,
      {
        method: opts.method ?? 'POST',
        agent: false,
        localAddress: opts.localAddress,
        headers: { ...headersFor('1.0'), ...opts.headers },
        timeout: 5_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end(opts.body);
  });
}

const GET_TASK = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'none' } });

describe('the rate limit on the wire', () => {
  it(
    'past the burst: 429 with Retry-After and a JSON-RPC error object; ' +
      'the card and /metrics are not limited; another address is',
    async () => {
      const agent = await agentWith({ rateLimit: { requestsPerSecond: 0.5, burst: 2 } });
      for (let i = 0; i < 2; i++) expect((await send(agent.url, { body: GET_TASK })).status).toBe(200);
      const limited = await send(agent.url, { body: GET_TASK });
      expect(limited.status).toBe(429);
      expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number.isInteger(Number(limited.retryAfter))).toBe(true);
      expect(JSON.parse(limited.body)).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: RATE_LIMITED_CODE, message: expect.stringContaining('too many requests') },
      });
      const rest = await send(agent.url, { path: '/tasks/none', method: 'GET' });
      expect(rest.status).toBe(429);
      expect(JSON.parse(rest.body)).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
      const v03 = await send(agent.url, { path: '/v1/tasks/none', method: 'GET' });
      expect(v03.status).toBe(429);
      expect(JSON.parse(v03.body)).toMatchObject({ code: RATE_LIMITED_CODE });
      expect((await send(agent.url, { path: '/.well-known/agent-card.json', method: 'GET' })).status).toBe(200);
      const metrics = await send(agent.url, { path: '/metrics', method: 'GET' });
      expect(metrics.status).toBe(200);
      expect(metrics.body).toMatch(/^a2a_agent_requests_rate_limited_total 3$/m);
      expect((await send(agent.url, { body: GET_TASK, localAddress: '127.0.0.2' })).status).toBe(200);
    },
  );

  it('answers before the body is read: a request whose body never comes gets its 429 at once', async () => {
    const agent = await agentWith({ rateLimit: { requestsPerSecond: 0.5, burst: 1 }, requestTimeoutMs: 10_000 });
    expect((await send(agent.url, { body: GET_TASK })).status).toBe(200);
    const port = Number(new URL(agent.url).port);
    const reply = await rawExchange(
      port,
      ['POST / HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n'],
      { stopAtReply: true, boundMs: 3_000 },
    );
    expect(reply.status).toBe(429);
    expect(reply.data).toMatch(/\r\nRetry-After: \d+\r\n/i);
  });

  it('limits replay-plane upgrades too (429 on the socket)', async () => {
    const agent = await agentWith({ rateLimit: { requestsPerSecond: 0.5, burst: 1 } });
    expect((await send(agent.url, { body: GET_TASK })).status).toBe(200);
    const port = Number(new URL(agent.url).port);
    const upgrade =
      'GET /events?task=none HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
    const reply = await rawExchange(port, [upgrade], { boundMs: 3_000 });
    expect(reply.status).toBe(429);
    expect(reply.data).toMatch(/\r\nRetry-After: \d+\r\n/i);
  });

  it('the CLI flags set it (a child agent with --rate-limit 0.5 --rate-limit-burst 1)', async () => {
    const child = await spawnAgent(['--rate-limit', '0.5', '--rate-limit-burst', '1']);
    owned.children.push(child);
    expect((await send(child.url, { body: GET_TASK })).status).toBe(200);
    const limited = await send(child.url, { body: GET_TASK });
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('is off by default: 30 requests at once from one address all answered', async () => {
    const agent = await agentWith({});
    const replies = await Promise.all(Array.from({ length: 30 }, () => send(agent.url, { body: GET_TASK })));
    expect(replies.map((r) => r.status)).toEqual(Array(30).fill(200));
  });
});
