// A hostile agent, written with node:http and ws, against the client's bounds: bodies that never
// end or never stop growing, headers that never come, SSE streams that run forever, flood, stall or
// never finish an event, replay sockets that flood or send giants, and bytes that are not the
// protocol, each at its own path (or replay task). Loopback only; one per test file.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { expect } from 'vitest';
import { WebSocketServer } from 'ws';
import { A2AClient } from '../../rig/client/a2aClient.ts';
import { describeAgent } from '../../rig/client/agentDiscovery.ts';
import type { TransportLimits } from '../../rig/client/transportTypes.ts';
import { TransportError } from '../../rig/client/transportError.ts';

export const LIMITS: Partial<TransportLimits> = {
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
export const SLACK_MS = 1_500;

let server: Server;
/** Where the agent listens (http://127.0.0.1:port), once started. */
export let base: string;
/** Bytes of the 1 GiB body sent so far, to show the client let go early. */
export let hugeBytesSent = 0;
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

/** Starts the agent on a free loopback port (`base`); a test file's beforeAll. */
export async function startHostileTransportAgent(): Promise<void> {
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
}

/** Stops its timers, the server and every socket still open; a test file's afterAll. */
export async function stopHostileTransportAgent(): Promise<void> {
  for (const t of timers) clearInterval(t);
  server.close();
  for (const s of sockets) s.destroy();
  await once(server, 'close').catch(() => {});
}

export function clientFor(rpcPath: string, replayLimits?: Record<string, number>): A2AClient {
  const url = `${base}/`;
  return A2AClient.forAgent(describeAgent(url, `${url}.well-known/agent-card.json`, card(rpcPath)), {
    limits: LIMITS,
    replayLimits,
  });
}

/** Runs `act`, expects a TransportError, and checks it came within `boundMs` (+ slack). */
export async function failsWithin(boundMs: number, act: () => Promise<unknown>): Promise<TransportError> {
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
