// Puts the reference agent together: outbox, engine, both bindings, the agent card, the replay
// plane and Prometheus metrics (GET /metrics) on one HTTP server, behind its DoS mitigations (the
// connection bounds, the optional rate limit, the body/header bounds and timeouts; each one has a
// fault flag that removes it, faults.ts). Returns a handle whose close() releases every socket,
// timer and file.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { A2AError, JSONRPC_INVALID_REQUEST } from '../protocol/errorCodes.ts';
import { GuardedValidator } from '../protocol/guardedValidator.ts';
import { HITL_PROMPT_URI, MAX_NESTING_DEPTH } from '../protocol/hitlPrompt.ts';
import { ACCEPTANCE_URI } from '../protocol/acceptance.ts';
import { agentCard, type CardGeneration } from './agentCard.ts';
import { isCardPath, serveCard } from './cardRoute.ts';
import { DEFAULT_AGENT_LIMITS, withoutStreamBounds, type AgentLimits } from './agentLimits.ts';
import { ConnectionLimiter, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS_PER_CLIENT } from './connectionLimits.ts';
import { RateLimiter, rateLimited, rateLimitedUpgrade, type Binding, type RateLimitOptions } from './rateLimit.ts';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  connectionsCheckingIntervalFor,
  decodeBody,
  logUnexpected,
  originFromHost,
  refuseSocket,
  targetUrl,
} from './httpGuards.ts';
import { AgentMetrics } from './agentMetrics.ts';
import { holdUntilCommitted } from './commitHold.ts';
import { AgentOperations, type Activation } from './agentOperations.ts';
import { activatedExtensions, echoExtensions } from './extensionActivation.ts';
import type { FaultName } from './faults.ts';
import { generationOf, handleJsonRpc, replyError } from './jsonRpcBinding.ts';
import { Outbox } from './outbox.ts';
import { ReplayPlane } from './replayPlane.ts';
import type { RunningGrpcServer } from './grpcBinding.ts';
import { handleRest, isRestPath, restError } from './restBinding.ts';
import { handleRestV03, isRestV03Path, restV03Error } from './restV03Binding.ts';
import { TaskEngine } from './taskEngine.ts';

/** Largest request body accepted; beyond it the agent answers 413. */
export const MAX_BODY_BYTES = 1_048_576;
/** The header block node accepts under the `no-header-limit` fault (its default, kept otherwise, is
 * 16 KiB: a bigger block gets 431). */
export const FAULT_MAX_HEADER_BYTES = 64 * 1024 * 1024;

export interface AgentOptions {
  host?: string;
  port?: number;
  dbPath: string;
  faults?: FaultName[];
  /** Overrides of the resource bounds (agentLimits.ts); tests lower them. */
  limits?: Partial<AgentLimits>;
  /** Time a client gets to send its request headers (default DEFAULT_HEADERS_TIMEOUT_MS); 408 after. */
  headersTimeoutMs?: number;
  /** Time a client gets to send its whole request (default DEFAULT_REQUEST_TIMEOUT_MS); 408 after. */
  requestTimeoutMs?: number;
  /** The card a request without A2A-Version gets at /.well-known/agent-card.json (default '1.0'; cardRoute.ts). */
  cardDefault?: CardGeneration;
  /** Open connections in total (default DEFAULT_MAX_CONNECTIONS); beyond it a socket is closed on accept. */
  maxConnections?: number;
  /** Open connections per client IP (default DEFAULT_MAX_CONNECTIONS_PER_CLIENT); beyond it likewise. */
  maxConnectionsPerClient?: number;
  /** Per-client-IP rate limit (rateLimit.ts); absent: none (the default). */
  rateLimit?: RateLimitOptions;
  /** Serve the gRPC binding too, on this port (0: a free one); absent: no gRPC. */
  grpcPort?: number;
}

export interface RunningAgent {
  url: string;
  port: number;
  dbPath: string;
  /** The gRPC binding's `host:port`, when it serves one. */
  grpcUrl?: string;
  close(): Promise<void>;
}

/** Reads the body, bounded unless `bounded` is false (the `no-body-limit` fault); 'aborted' when
 * the client went away before the end. A declared length past the bound is refused before a byte. */
function readBody(req: IncomingMessage, bounded: boolean): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (bounded && declared > MAX_BODY_BYTES) return resolve('too-large');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (bounded && size > MAX_BODY_BYTES) {
        req.removeAllListeners('data');
        req.pause();
        resolve('too-large');
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // A client that leaves mid-body (or is cut by the request timeout) is not an error of ours:
    // there is no one left to answer.
    req.on('close', () => resolve('aborted'));
    req.on('error', () => resolve('aborted'));
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  if (close) res.setHeader('Connection', 'close');
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The last resort for a throw no handler caught: a 500 (or a cut connection), never an exit. */
function failRequest(res: ServerResponse, err: unknown): void {
  logUnexpected('request handler', err);
  try {
    if (res.headersSent) res.destroy();
    else sendJson(res, 500, { error: { code: 500, message: 'internal error' } }, true);
  } catch {
    res.destroy();
  }
}

/** What one agent is made of, shared by its request, upgrade and close paths. `baseUrl` and `grpc`
 * are set while it starts (the gRPC port first, then the HTTP address once listening). */
interface AgentParts {
  options: AgentOptions;
  faults: Set<FaultName>;
  outbox: Outbox;
  metrics: AgentMetrics;
  connections: ConnectionLimiter;
  rateLimiter: RateLimiter | undefined;
  engine: TaskEngine;
  ops: AgentOperations;
  replay: ReplayPlane;
  noEcho: boolean;
  startedAt: Date;
  baseUrl: string;
  /** The JSON-RPC endpoint's target, parsed once (nothing changes a request's URL object). */
  rootUrl?: URL;
  grpc?: RunningGrpcServer;
}

/** The outbox opened, and the engine, bounds and metrics around it, as the options and faults say. */
function assembleAgent(options: AgentOptions, faults: Set<FaultName>): AgentParts {
  const given = { ...DEFAULT_AGENT_LIMITS, ...options.limits };
  const limits = faults.has('unbounded-streams') ? withoutStreamBounds(given) : given;
  const outbox = new Outbox(options.dbPath, {
    volatileEvents: faults.has('volatile-outbox'),
    cache: { rows: limits.taskCacheRows, bytes: limits.taskCacheBytes },
  });
  const validator = new GuardedValidator({
    maxDepth: faults.has('no-depth-limit') ? Infinity : MAX_NESTING_DEPTH,
    nativePatterns: faults.has('backtracking-patterns'),
  });
  const metrics = new AgentMetrics(outbox);
  const noConnectionLimit = faults.has('no-connection-limit');
  const connections = new ConnectionLimiter(
    {
      maxConnections: noConnectionLimit ? Infinity : (options.maxConnections ?? DEFAULT_MAX_CONNECTIONS),
      maxConnectionsPerClient: noConnectionLimit
        ? Infinity
        : (options.maxConnectionsPerClient ?? DEFAULT_MAX_CONNECTIONS_PER_CLIENT),
    },
    (reason) => metrics.connectionShed(reason),
  );
  metrics.openConnections = () => connections.open;
  const rateLimiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const engine = new TaskEngine(outbox, validator, faults, metrics, limits);
  const ops = new AgentOperations(engine);
  const noEcho = faults.has('no-extension-echo');
  const replay = new ReplayPlane(engine, (req) => {
    const activated = activatedExtensions(req);
    return noEcho || activated.length === 0
      ? []
      : [`A2A-Extensions: ${activated.join(', ')}`, `X-A2A-Extensions: ${activated.join(', ')}`];
  });
  const parts = { options, faults, outbox, metrics, connections, rateLimiter, engine, ops, replay, noEcho };
  return { ...parts, startedAt: new Date(), baseUrl: '' };
}

function cardOptions(agent: AgentParts) {
  return { declareRequired: agent.faults.has('declare-required-extension'), grpcPort: agent.grpc?.port };
}

/** The address the client used, so a client behind a proxy stays behind it. */
function hostOf(agent: AgentParts, req: IncomingMessage): string {
  return originFromHost(req.headers.host) ?? agent.baseUrl;
}

/** The binding a path belongs to; undefined when none does (a 404). */
function bindingOf(req: IncomingMessage, url: URL): Binding | undefined {
  if (url.pathname === '/' && req.method === 'POST') return 'json-rpc';
  if (isRestV03Path(url.pathname)) return 'rest-v0.3';
  return isRestPath(url.pathname) ? 'rest' : undefined;
}

/** Before the body is read: a limited client costs a header parse and a short answer. */
function refusedByRateLimit(agent: AgentParts, req: IncomingMessage, res: ServerResponse, binding: Binding): boolean {
  const retryAfter = agent.rateLimiter?.take(req.socket.remoteAddress);
  if (retryAfter === undefined) return false;
  agent.metrics.rateLimited();
  const declared = {
    length: Number(req.headers['content-length'] ?? 0),
    chunked: req.headers['transfer-encoding'] !== undefined,
  };
  rateLimited(res, binding, retryAfter, declared);
  return true;
}

const BODY_REFUSALS: Record<Binding, (res: ServerResponse, err: unknown) => void> = {
  'json-rpc': (res, err) => replyError(res, null, err),
  'rest-v0.3': (res, err) => restV03Error(res, err),
  rest: (res, err) => restError(res, err),
};

/** The request's body as text; undefined when it has been answered already (or its client left). */
async function requestText(
  agent: AgentParts,
  req: IncomingMessage,
  res: ServerResponse,
  binding: Binding,
): Promise<string | undefined> {
  const body = await readBody(req, !agent.faults.has('no-body-limit'));
  if (body === 'aborted') return undefined;
  if (body === 'too-large') {
    res.setHeader('Connection', 'close');
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: new A2AError(JSONRPC_INVALID_REQUEST, `request body exceeds ${MAX_BODY_BYTES} bytes`).toJson(),
    });
    res.writeHead(413, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
    return undefined;
  }
  const parseErrors500 = agent.faults.has('parse-errors-500');
  try {
    const text = decodeBody(body);
    if (parseErrors500 && text.trim() !== '') JSON.parse(text);
    return text;
  } catch (err) {
    if (parseErrors500) sendJson(res, 500, { error: { code: 500, message: 'internal error' } });
    else BODY_REFUSALS[binding](res, err);
    return undefined;
  }
}

async function handleRequest(agent: AgentParts, req: IncomingMessage, res: ServerResponse) {
  const url = req.url === '/' ? (agent.rootUrl ??= targetUrl('/', agent.baseUrl)) : targetUrl(req.url, agent.baseUrl);
  if (!url)
    return sendJson(
      res,
      400,
      { error: { code: 400, message: 'the request target is not a path of this agent' } },
      true,
    );
  const activated = activatedExtensions(req);
  echoExtensions(res, activated, agent.noEcho);
  if ((req.method === 'GET' || req.method === 'HEAD') && isCardPath(url.pathname)) {
    const cardDefault = agent.options.cardDefault ?? '1.0';
    return serveCard(req, res, url, hostOf(agent, req), {
      cardDefault,
      ...cardOptions(agent),
      startedAt: agent.startedAt,
    });
  }
  if (req.method === 'GET' && url.pathname === '/metrics') {
    const text = await agent.metrics.scrape();
    res.writeHead(200, { 'Content-Type': agent.metrics.contentType, 'Content-Length': Buffer.byteLength(text) });
    return res.end(text);
  }
  const binding = bindingOf(req, url);
  if (refusedByRateLimit(agent, req, res, binding ?? 'rest')) return;
  if (binding === undefined) {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    return res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.method} ${url.pathname}` } }));
  }
  holdUntilCommitted(res, agent.outbox);
  const text = await requestText(agent, req, res, binding);
  if (text === undefined) return;
  const activation: Activation = {
    hitl: activated.includes(HITL_PROMPT_URI),
    acceptance: activated.includes(ACCEPTANCE_URI),
    authorization: req.headers.authorization,
  };
  if (binding === 'json-rpc') return handleJsonRpc(req, res, text, agent.ops, activation);
  if (binding === 'rest-v0.3') {
    const card = () => agentCard(hostOf(agent, req), { generation: '0.3', ...cardOptions(agent) });
    return handleRestV03(req, res, url, text, agent.ops, activation, { card });
  }
  return handleRest(req, res, url, text, agent.ops, activation);
}

/** A WebSocket upgrade: the replay plane at /events, behind the rate limit; anything else refused. */
function handleUpgrade(agent: AgentParts, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  try {
    const url = targetUrl(req.url, agent.baseUrl);
    if (!url) return refuseSocket(socket, 400, 'the request target is not a path of this agent');
    if (url.pathname !== '/events') return refuseSocket(socket, 404, `no WebSocket at ${url.pathname}`);
    const retryAfter = agent.rateLimiter?.take(req.socket.remoteAddress);
    if (retryAfter !== undefined) {
      agent.metrics.rateLimited();
      return rateLimitedUpgrade(socket, retryAfter);
    }
    let generation;
    try {
      generation = generationOf(req, url.searchParams.get('version'));
    } catch (err) {
      return refuseSocket(socket, 400, (err as Error).message);
    }
    agent.replay.handleUpgrade(req, socket, head, url, generation);
  } catch (err) {
    logUnexpected('WebSocket upgrade', err);
    refuseSocket(socket, 500, 'internal error');
  }
}

/** The HTTP server, its timeouts and header bound as the faults say; admitted sockets go to `sockets`. */
function agentServer(agent: AgentParts, sockets: Set<Socket>): Server {
  const { faults, options } = agent;
  // `no-request-timeouts`: 0 turns both off, and with them node's only cut of a socket that never
  // sends a byte (the headers timeout runs from accept; server.timeout is 0 and keepAliveTimeout
  // starts only after a response), so such a socket stays open for good.
  const noTimeouts = faults.has('no-request-timeouts');
  const headersTimeout = noTimeouts ? 0 : (options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS);
  const requestTimeout = noTimeouts ? 0 : (options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS);
  const server = createServer(
    // node enforces both timeouts only when it checks its connections; its default interval (30 s)
    // let a Slowloris client hold a socket for 61 s, so the interval follows the timeouts.
    {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: connectionsCheckingIntervalFor(headersTimeout, requestTimeout),
      ...(faults.has('no-header-limit') ? { maxHeaderSize: FAULT_MAX_HEADER_BYTES } : {}),
    },
    (req, res) => {
      handleRequest(agent, req, res).catch((err) =>
        err instanceof A2AError ? replyError(res, null, err) : failRequest(res, err),
      );
    },
  );
  server.on('connection', (socket) => {
    // node's own listener ran first (it only attached the parser); nothing is read before this
    // tick ends, so a socket beyond a bound is closed before any byte of it is.
    if (!agent.connections.admit(socket)) return;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // node stops listening for errors on a socket it hands to 'upgrade'; a reset there must not
    // become an uncaught 'error' event.
    socket.on('error', () => socket.destroy());
  });
  server.on('upgrade', (req, socket, head) => handleUpgrade(agent, req, socket, head));
  return server;
}

/** Binds the gRPC server when a port is asked for. Loaded only then: protobufjs and grpc-js are most
 * of an HTTP-only agent's start otherwise. */
async function bindGrpc(agent: AgentParts): Promise<void> {
  const { options } = agent;
  const grpcOptions = { host: options.host ?? '127.0.0.1', maxMessageBytes: MAX_BODY_BYTES, noEcho: agent.noEcho };
  if (options.grpcPort !== undefined) {
    const { startGrpcServer } = await import('./grpcBinding.ts');
    agent.grpc = await startGrpcServer(agent.ops, { ...grpcOptions, port: options.grpcPort });
  }
}

/** Listens, and sets the agent's base URL from the address it got. */
async function bindHttp(agent: AgentParts, server: Server): Promise<number> {
  server.listen(agent.options.port ?? 0, agent.options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port, address, family } = server.address() as AddressInfo;
  agent.baseUrl = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  return port;
}

export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  const agent = assembleAgent(options, new Set(options.faults ?? []));
  const sockets = new Set<Socket>();
  const server = agentServer(agent, sockets);
  // gRPC first: a port it cannot have stops the start before the HTTP server holds its own.
  await bindGrpc(agent);
  const port = await bindHttp(agent, server);
  const { engine, replay, outbox, grpc, baseUrl } = agent;
  engine.recover();

  return {
    url: baseUrl,
    port,
    dbPath: options.dbPath,
    grpcUrl: grpc && `${new URL(baseUrl).hostname}:${grpc.port}`,
    async close() {
      await grpc?.close();
      engine.close();
      replay.close();
      server.close();
      for (const socket of sockets) socket.destroy();
      await once(server, 'close').catch(() => {});
      outbox.close();
    },
  };
}
