// Puts the reference agent together: outbox, engine, both bindings, the agent card, the replay
// plane and Prometheus metrics (GET /metrics) on one HTTP server. Returns a handle whose close()
// releases every socket, timer and file.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { A2AError, JSONRPC_INVALID_REQUEST } from '../protocol/errorCodes.ts';
import { GuardedValidator } from '../protocol/guardedValidator.ts';
import { MAX_NESTING_DEPTH } from '../protocol/hitlPrompt.ts';
import { agentCard } from './agentCard.ts';
import { DEFAULT_AGENT_LIMITS, type AgentLimits } from './agentLimits.ts';
import { AgentMetrics } from './agentMetrics.ts';
import { AgentOperations } from './agentOperations.ts';
import { activatedExtensions, echoExtensions } from './extensionActivation.ts';
import type { FaultName } from './faults.ts';
import { generationOf, handleJsonRpc, replyError } from './jsonRpcBinding.ts';
import { Outbox } from './outbox.ts';
import { ReplayPlane } from './replayPlane.ts';
import { handleRest, isRestPath } from './restBinding.ts';
import { TaskEngine } from './taskEngine.ts';

/** Largest request body accepted; beyond it the agent answers 413. */
export const MAX_BODY_BYTES = 1_048_576;

export interface AgentOptions {
  host?: string;
  port?: number;
  dbPath: string;
  faults?: FaultName[];
  /** Overrides of the resource bounds (agentLimits.ts); tests lower them. */
  limits?: Partial<AgentLimits>;
}

export interface RunningAgent {
  url: string;
  port: number;
  dbPath: string;
  close(): Promise<void>;
}

const HOST_HEADER = /^[A-Za-z0-9.\-:[\]]+$/;

function readBody(req: IncomingMessage): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) return resolve('too-large');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.pause();
        resolve('too-large');
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const faults = new Set(options.faults ?? []);
  const outbox = new Outbox(options.dbPath, { volatileEvents: faults.has('volatile-outbox') });
  const validator = new GuardedValidator({ maxDepth: faults.has('no-depth-limit') ? Infinity : MAX_NESTING_DEPTH });
  const metrics = new AgentMetrics(outbox);
  const engine = new TaskEngine(outbox, validator, faults, metrics, { ...DEFAULT_AGENT_LIMITS, ...options.limits });
  const ops = new AgentOperations(engine);
  const noEcho = faults.has('no-extension-echo');
  const replay = new ReplayPlane(engine, (req) => {
    const activated = activatedExtensions(req);
    return noEcho || activated.length === 0 ? [] : [`A2A-Extensions: ${activated.join(', ')}`, `X-A2A-Extensions: ${activated.join(', ')}`];
  });
  let baseUrl = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', baseUrl);
    const activated = activatedExtensions(req);
    echoExtensions(res, activated, noEcho);
    if (req.method === 'GET' && (url.pathname === '/.well-known/agent-card.json' || url.pathname === '/.well-known/agent.json')) {
      // The card names the address the client used, so a client behind a proxy stays behind it.
      const host = req.headers.host && HOST_HEADER.test(req.headers.host) ? `http://${req.headers.host}` : baseUrl;
      const text = JSON.stringify(agentCard(host, { declareRequired: faults.has('declare-required-extension') }));
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      return res.end(text);
    }
    if (req.method === 'GET' && url.pathname === '/metrics') {
      const text = await metrics.scrape();
      res.writeHead(200, { 'Content-Type': metrics.contentType, 'Content-Length': Buffer.byteLength(text) });
      return res.end(text);
    }
    const isRpc = url.pathname === '/' && req.method === 'POST';
    if (!isRpc && !isRestPath(url.pathname)) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.method} ${url.pathname}` } }));
    }
    const body = await readBody(req);
    if (body === 'too-large') {
      res.setHeader('Connection', 'close');
      const text = JSON.stringify({
        jsonrpc: '2.0',
        id: null,
        error: new A2AError(JSONRPC_INVALID_REQUEST, `request body exceeds ${MAX_BODY_BYTES} bytes`).toJson(),
      });
      res.writeHead(413, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      return res.end(text);
    }
    const hitl = activated.length > 0;
    if (isRpc) return handleJsonRpc(req, res, body, ops, hitl);
    return handleRest(req, res, url, body, ops, hitl);
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch((err) => replyError(res, null, err));
  });
  server.requestTimeout = 30_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', baseUrl);
    if (url.pathname !== '/events') return socket.destroy();
    try {
      replay.handleUpgrade(req, socket, head, url, generationOf(req, url.searchParams.get('version')));
    } catch (err) {
      socket.end(`HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n${(err as Error).message}`);
    }
  });

  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port, address, family } = server.address() as AddressInfo;
  baseUrl = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  engine.recover();

  return {
    url: baseUrl,
    port,
    dbPath: options.dbPath,
    async close() {
      engine.close();
      replay.close();
      server.close();
      for (const socket of sockets) socket.destroy();
      await once(server, 'close').catch(() => {});
      outbox.close();
    },
  };
}
