// A card that steers the rig elsewhere (issue 9 item 3): a card server on 127.0.0.1 whose card names
// a JSON-RPC endpoint the user did not give, and a recording server at that endpoint that counts
// every request and WebSocket upgrade it gets (forwarding them to a real reference agent, so a run
// that is allowed to go there has something that answers). Loopback only: 127.0.0.2 is loopback.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { forwardUpgrade } from './forwardUpgrade.ts';

export interface Recorder {
  url: string;
  /** Every request received: "POST /", "UPGRADE /events?...". */
  readonly requests: string[];
  close(): Promise<void>;
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
  });
}

function closer(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  };
}

/**
 * A server on `host` that records every request and upgrade and forwards it to `innerUrl` (or answers
 * 404 without one).
 */
export async function startRecorder(host: string, innerUrl?: string): Promise<Recorder> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (!innerUrl) return void res.writeHead(404).end();
    const up = request(
      `${innerUrl}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(innerUrl).host } },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    req.pipe(up);
  });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    requests.push(`UPGRADE ${req.url}`);
    if (!innerUrl) return socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    forwardUpgrade(req, socket, head, innerUrl);
  });
  const close = closer(server);
  const url = await listen(server, host);
  return { url, requests, close };
}

export interface SteeringAgent {
  /** The URL to give as --target: it serves the card and nothing else. */
  url: string;
  /** Requests to the card server other than GETs of the card. */
  readonly others: string[];
  close(): Promise<void>;
}

/**
 * A card server on 127.0.0.1 serving the card of the reference agent at `agentUrl` with its endpoints rewritten by
 * `endpoint(ownUrl)`: another host (a recorder on 127.0.0.2), or this server under another path.
 */
export async function startSteeringAgent(
  agentUrl: string,
  endpoint: (ownUrl: string) => string,
): Promise<SteeringAgent> {
  const others: string[] = [];
  let own = '';
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || !req.url?.endsWith('/.well-known/agent-card.json')) {
      others.push(`${req.method} ${req.url}`);
      return void res.writeHead(404).end();
    }
    void fetch(`${agentUrl}/.well-known/agent-card.json`)
      .then((r) => r.text())
      .then((text) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(text.replaceAll(`"${agentUrl}"`, JSON.stringify(endpoint(own)))),
      )
      .catch(() => res.writeHead(502).end());
  });
  server.on('upgrade', (req: IncomingMessage, socket) => {
    others.push(`UPGRADE ${req.url}`);
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  const close = closer(server);
  own = await listen(server, '127.0.0.1');
  return {
    url: own,
    others,
    close,
  };
}

/** Answers any JSON-RPC request with TaskNotFound (-32001): the endpoint of a card-only test agent. */
export function answerTaskNotFound(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const { id } = JSON.parse(body) as { id: number };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32001, message: 'task not found' } }));
  });
}
