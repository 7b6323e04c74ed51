// A hostile agent, written here with node:http and ws, against the client's bounds: bodies that
// never end or never stop growing, headers that never come, SSE streams that run forever, flood,
// stall or never finish an event, replay sockets that flood or send giants, and bytes that are not
// the protocol. Each must fail with a clear TransportError within its bound: the rig never hangs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { describeAgent } from '../rig/client/agentDiscovery.ts';
import type { TransportLimits } from '../rig/client/jsonRpcTransport.ts';
import { userMessage } from '../rig/client/outgoingMessage.ts';
import { TransportError } from '../rig/client/transportError.ts';

const LIMITS: Partial<TransportLimits> = {
  connectTimeoutMs: 1_000,
  headersTimeoutMs: 300,
  bodyIdleTimeoutMs: 300,
  requestTimeoutMs: 600,
  maxResponseBytes: 256 * 1024,
  streamTimeoutMs: 800,
  streamIdleTimeoutMs: 300,
  maxStreamBytes: 256 * 1024,
  maxEventChars: 64 * 1024,
};
/** Slack over a bound for timers, scheduling and a loaded two-core machine. */
const SLACK_MS = 1_500;

let server: Server;
let base: string;
let hugeBytesSent = 0;
const sockets = new Set<Socket>();
const timers = new Set<NodeJS.Timeout>();

function card(rpcPath: string): Record<string, unknown> {
  return {
    name: 'hostile',
    description: 'misbehaves on purpose',
    version: '0',
    supportedInterfaces: [{ url: `${base}${rpcPath}`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
  };
}

/** Repeats `fn` every `ms` until the response closes. */
function every(res: ServerResponse, ms: number, fn: () => void): void {
  const timer = setInterval(() => (res.destroyed ? stop() : fn()), ms);
  const stop = () => {
    clearInterval(timer);
    timers.delete(timer);
  };
  timers.add(timer);
  res.on('close', stop);
}

function frame(id: unknown, n: number): string {
  const status = { state: 'TASK_STATE_WORKING', timestamp: '' };
  const event = {
    jsonrpc: '2.0',
    id,
    result: { statusUpdate: { taskId: 't', contextId: 'c', status, metadata: { n } } },
  };
  return `data: ${JSON.stringify(event)}\n\n`;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const path = new URL(req.url ?? '/', base).pathname;
  const id = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown }).id : null;
  const sse = () => res.writeHead(200, { 'content-type': 'text/event-stream' });
  switch (path) {
    case '/huge-card/.well-known/agent-card.json':
    case '/huge':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void pumpHuge(res);
    case '/huge-declared':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 ** 3) });
      return void res.write('{"jsonrpc":"2.0"');
    case '/drip-forever':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0","result":"');
      return every(res, 20, () => res.write('a'));
    case '/silent':
      return; // never answers; the socket is destroyed at teardown
    case '/stall-body':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.write('{"jsonrpc":');
    case '/garbage':
      res.writeHead(500, { 'content-type': 'text/html' });
      return void res.end('<html>Internal Server Error</html>');
    case '/wrong-id':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ jsonrpc: '2.0', id: 999_999, result: {} }));
    case '/proto':
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"__proto__":{"polluted":true}}}`);
    case '/sse-forever': {
      sse();
      let n = 0;
      return every(res, 20, () => res.write(frame(id, n++)));
    }
    case '/sse-flood':
      sse();
      return every(res, 1, () => res.write(`: ${'x'.repeat(16 * 1024)}\n\n`));
    case '/sse-giant-event':
      sse();
      res.write('data: ');
      return every(res, 1, () => res.write('y'.repeat(16 * 1024)));
    case '/sse-silent':
      sse();
      return void res.write(frame(id, 0));
    case '/sse-not-a2a':
      sse();
      return void res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { surprise: true } })}\n\n`);
    default:
      res.writeHead(404);
      res.end();
  }
}

/** Streams up to 1 GiB as fast as the client takes it, stopping when the client lets go. */
function pumpHuge(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const pump = () => {
    while (!res.destroyed && hugeBytesSent < 1024 ** 3) {
      hugeBytesSent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res).catch(() => res.destroy()));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const task = new URL(req.url ?? '/', base).searchParams.get('task');
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (task === 'huge-frame') ws.send('z'.repeat(2 * 1024 * 1024));
      else if (task === 'garbage') ws.send('not json');
      else if (task === 'wrong-task') ws.send(JSON.stringify({ seq: 1, eventId: 'e1', taskId: 'other', event: {} }));
      else if (task === 'flood') {
        let seq = 0;
        const timer = setInterval(() => {
          for (let i = 0; i < 50 && ws.readyState === ws.OPEN; i++) {
            seq += 1;
            ws.send(
              JSON.stringify({
                seq,
                eventId: `e${seq}`,
                taskId: 'flood',
                event: { statusUpdate: { taskId: 'flood', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } },
              }),
            );
          }
        }, 1);
        ws.on('close', () => clearInterval(timer));
      }
      // 'silent': says nothing and never closes
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const t of timers) clearInterval(t);
  server.close();
  for (const s of sockets) s.destroy();
  await once(server, 'close').catch(() => {});
});

function clientFor(rpcPath: string, replayLimits?: Record<string, number>): A2AClient {
  const url = `${base}/`;
  return A2AClient.forAgent(describeAgent(url, `${url}.well-known/agent-card.json`, card(rpcPath)), {
    limits: LIMITS,
    replayLimits,
  });
}

/** Runs `act`, expects a TransportError, and checks it came within `boundMs` (+ slack). */
async function failsWithin(boundMs: number, act: () => Promise<unknown>): Promise<TransportError> {
  const started = performance.now();
  const err = await act().then(
    () => new Error('expected a TransportError, the call succeeded'),
    (e: unknown) => e,
  );
  const elapsed = performance.now() - started;
  expect(err).toBeInstanceOf(TransportError);
  expect(elapsed).toBeLessThan(boundMs + SLACK_MS);
  return err as TransportError;
}

describe('unary calls against a hostile agent', () => {
  it('a body that never ends is cut at the overall bound', async () => {
    const client = clientFor('/drip-forever');
    const err = await failsWithin(600, () => client.getTask('t'));
    expect(err.failure).toBe('timeout');
    expect(err.message).toBe(`POST ${base}/drip-forever (GetTask) did not complete within 600 ms`);
    expect(err.httpStatus).toBe(200);
    await client.close();
  });

  it('a 1 GiB body is cut at the byte bound, long before the agent gets far', async () => {
    const client = clientFor('/huge');
    const err = await failsWithin(0, () => client.getTask('t'));
    expect(err.failure).toBe('too-large');
    expect(err.message).toBe(`POST ${base}/huge (GetTask): response body exceeded 262144 bytes; the rig cut it off`);
    expect(hugeBytesSent).toBeLessThan(64 * 1024 * 1024);
    await client.close();
  });

  it('a declared 1 GiB Content-Length is refused before reading', async () => {
    const client = clientFor('/huge-declared');
    const err = await failsWithin(0, () => client.getTask('t'));
    expect(err.failure).toBe('too-large');
    expect(err.message).toMatch(/response declares 1073741824 bytes; the rig accepts at most 262144/);
    await client.close();
  });

  it('headers that never come hit the headers bound', async () => {
    const client = clientFor('/silent');
    const err = await failsWithin(300, () => client.send(userMessage()));
    expect(err.failure).toBe('headers-timeout');
    expect(err.message).toBe(`POST ${base}/silent (SendMessage): no response headers within 300 ms`);
    await client.close();
  });

  it('a body that stalls hits the idle bound', async () => {
    const client = clientFor('/stall-body');
    const err = await failsWithin(300, () => client.getTask('t'));
    expect(err.failure).toBe('idle-timeout');
    expect(err.message).toMatch(/the body stalled for more than 300 ms/);
    await client.close();
  });

  it.each([
    ['/garbage', /HTTP 500 reply is not JSON-RPC \(body is not valid JSON/],
    ['/wrong-id', /reply id 999999 does not answer request id \d+/],
    ['/proto', /"__proto__" or "constructor.prototype" key, which is refused/],
  ])('bytes that are not the protocol (%s) are a protocol failure', async (path, message) => {
    const client = clientFor(path);
    const err = await failsWithin(0, () => client.getTask('t'));
    expect(err.failure).toBe('protocol');
    expect(err.message).toMatch(message);
    await client.close();
  });

  it('answer() never throws for what the agent does: a silent agent is an error outcome', async () => {
    const client = clientFor('/silent');
    const started = performance.now();
    const outcome = await client.answer('t', '7d444840-9dc0-41e5-9c7b-c2bd6d7a1b7e', { approved: true });
    expect(outcome).toMatchObject({
      kind: 'error',
      httpStatus: undefined,
      reason: expect.stringMatching(/no response headers within 300 ms/),
    });
    expect(performance.now() - started).toBeLessThan(300 + SLACK_MS);
    await client.close();
  });

  it('close() aborts calls in flight at once', async () => {
    const client = clientFor('/silent');
    const pending = client.getTask('t', { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await client.close();
    const err = (await pending) as TransportError;
    expect(err.failure).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(SLACK_MS);
  });
});

describe('discovery against a hostile agent', () => {
  it('a missing card and a 1 GiB card are one-line DiscoveryErrors', async () => {
    const missing = await A2AClient.open(`${base}/none`, { limits: LIMITS }).catch((e: Error) => e);
    expect(missing).toMatchObject({
      name: 'DiscoveryError',
      message:
        `no agent card at ${base}/none (${base}/none/.well-known/agent-card.json answered 404; ` +
        `${base}/.well-known/agent-card.json answered 404); is it an A2A agent?`,
    });
    const big = await A2AClient.open(`${base}/huge-card/`, { limits: LIMITS }).catch((e: Error) => e);
    expect(big).toMatchObject({
      name: 'DiscoveryError',
      message: expect.stringMatching(/cannot read the agent card: .*exceeded 262144 bytes/),
    });
  });
});

describe('SSE streams against a hostile agent', () => {
  async function openStream(path: string) {
    const client = clientFor(path);
    const opened = await client.sendStream(userMessage());
    if (!opened.ok) throw new Error('stream refused');
    return { client, stream: opened.stream };
  }

  it('a stream that never ends is cut at the stream bound, keeping what it received', async () => {
    const { client, stream } = await openStream('/sse-forever');
    const started = performance.now();
    const end = await stream.ended;
    expect(performance.now() - started).toBeLessThan(800 + SLACK_MS);
    expect(end.reason).toBe('failed');
    expect(end.reason === 'failed' && end.error.failure).toBe('timeout');
    expect(end.reason === 'failed' && end.error.message).toBe(
      `SSE stream of POST ${base}/sse-forever (SendStreamingMessage) did not complete within 800 ms`,
    );
    expect(stream.events.length).toBeGreaterThan(3);
    expect(client.history.connection(stream.connectionId)?.closeReason).toMatch(/did not complete within 800 ms/);
    await client.close();
  });

  it('a flood is cut at the byte bound', async () => {
    const { client, stream } = await openStream('/sse-flood');
    const end = await stream.ended;
    expect(end.reason === 'failed' && end.error.failure).toBe('too-large');
    expect(end.reason === 'failed' && end.error.message).toMatch(/exceeded 262144 bytes; the rig cut it off/);
    await client.close();
  });

  it('an event that never ends is cut at the event bound', async () => {
    const { client, stream } = await openStream('/sse-giant-event');
    const end = await stream.ended;
    expect(end.reason === 'failed' && end.error.message).toMatch(/sent one event longer than 65536 characters/);
    await client.close();
  });

  it('a stream that goes silent hits the idle bound', async () => {
    const { client, stream } = await openStream('/sse-silent');
    const started = performance.now();
    const end = await stream.ended;
    expect(performance.now() - started).toBeLessThan(300 + SLACK_MS);
    expect(end.reason === 'failed' && end.error.failure).toBe('idle-timeout');
    expect(stream.events).toHaveLength(1);
    await client.close();
  });

  it('a frame that is not an A2A event fails the stream with a protocol error', async () => {
    const { client, stream } = await openStream('/sse-not-a2a');
    const end = await stream.ended;
    expect(end.reason === 'failed' && end.error.failure).toBe('protocol');
    expect(end.reason === 'failed' && end.error.message).toMatch(/frame 1 is not an A2A stream event/);
    await client.close();
  });

  it('waiting on a stream is bounded too', async () => {
    const { client, stream } = await openStream('/sse-silent');
    await expect(stream.waitFor((e) => e.seq === 42, 100)).rejects.toThrow(/no awaited event within 100 ms|ended/);
    await client.close();
  });
});

describe('replay sockets against a hostile agent', () => {
  it.each([
    ['huge-frame', 'too-large', /the agent sent a frame over 65536 bytes \(the rig's bound on one frame\)/],
    ['garbage', 'protocol', /frame 1 is not a replay frame: body is not valid JSON/],
    ['wrong-task', 'protocol', /frame.taskId "other" is not the task asked for/],
    ['flood', 'too-large', /sent more than 200 frames/],
    ['silent', 'timeout', /outlived its 500 ms bound/],
  ])('%s ends the socket as failed (%s)', async (task, failure, message) => {
    const client = clientFor('/');
    const started = performance.now();
    const socket = await client.replay(task, { limits: { maxFrameBytes: 64 * 1024, maxFrames: 200, lifetimeMs: 500 } });
    const end = await socket.ended;
    expect(performance.now() - started).toBeLessThan(500 + SLACK_MS);
    expect(end.reason).toBe('failed');
    expect(end.reason === 'failed' && end.error.failure).toBe(failure);
    expect(end.reason === 'failed' && end.error.message).toMatch(message);
    await client.close();
  });

  it('a flood of small frames is cut by the bytes a socket may carry in all, not only by their count', async () => {
    const client = clientFor('/');
    const socket = await client.replay('flood', {
      limits: { maxFrames: 1_000_000, maxSocketBytes: 16 * 1024, lifetimeMs: 2_000 },
    });
    const end = await socket.ended;
    expect(end.reason === 'failed' && end.error.failure).toBe('too-large');
    expect(end.reason === 'failed' && end.error.message).toMatch(
      /replay socket of http:\/\/127\.0\.0\.1:\d+ for task flood sent more than 16384 bytes in \d+ frames/,
    );
    await client.close();
  });
});
