// The reference agent behind a front that makes it look like another agent: the replay plane (/events)
// can be hidden (the upgrade answered 404, as an agent without an outbox would), every request the
// front sees is logged (to prove a scenario sent nothing), and a restart command for --restart-cmd
// replaces the agent on the same database ("keep") or on a fresh one ("lose": an agent that loses
// every task on restart), and subscriptions can be refused as a2a-sdk 0.3.26 does. The card is
// rewritten to the front's address, so the rig's traffic (and any fault proxy) goes through the front.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { forwardUpgrade } from './forwardUpgrade.ts';
import type { AddressInfo } from 'node:net';
import { startAgent, type RunningAgent } from '../../rig/agent/startAgent.ts';
import type { FaultName } from '../../rig/agent/faults.ts';
import { tempDbPath } from './inProcessAgent.ts';

export interface FrontedAgent {
  url: string;
  /** Every request the front received, in order: "POST /", "GET /.well-known/...", "UPGRADE /events?...". */
  readonly requests: string[];
  /** A shell command (for --restart-cmd / restartCmd) that restarts the agent behind the front. */
  restartCommand(mode: 'keep' | 'lose'): string;
  readonly restarts: number;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

export interface FrontOptions {
  /**
   * Pass /events through (true), answer its upgrade with 404 (false), or pass only the task-free probe
   * ('probe-only': a broken plane).
   */
  replayPlane: boolean | 'probe-only';
  /** Refuse every SubscribeToTask / tasks/resubscribe, framed as plain JSON or inside an event stream. */
  refuseSubscribe?: 'json' | 'sse';
  faults?: FaultName[];
}

export async function startFrontedAgent(options: FrontOptions): Promise<FrontedAgent> {
  const dbs = [tempDbPath()];
  let inner: RunningAgent = await startAgent({ dbPath: dbs[0].path, faults: options.faults });
  const requests: string[] = [];
  let frontUrl = '';
  let restarts = 0;

  const front = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (options.refuseSubscribe && req.method === 'POST')
      return void refuseSubscriptions(req, res, options.refuseSubscribe);
    forward(req, res);
  });
  // As a2a-sdk 0.3.26 does for a task that is not running: a JSON-RPC error (-32001), either as
  // plain JSON or as the first and only event of an HTTP 200 event stream. Other calls pass on.
  const refuseSubscriptions = (req: IncomingMessage, res: ServerResponse, framing: 'json' | 'sse') => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let call: { id?: unknown; method?: unknown } = {};
      try {
        call = JSON.parse(body.toString('utf8'));
      } catch {
        // not JSON-RPC: the agent behind says so
      }
      if (call.method !== 'SubscribeToTask' && call.method !== 'tasks/resubscribe') return forward(req, res, body);
      const error = JSON.stringify({
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32001, message: 'Task not found or not running' },
      });
      if (framing === 'json') res.writeHead(200, { 'content-type': 'application/json' }).end(error);
      else res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${error}\n\n`);
    });
  };
  const forward = (req: IncomingMessage, res: ServerResponse, body?: Buffer) => {
    const upstream = request(
      `${inner.url}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(inner.url).host } },
      (up) => {
        if (req.url?.startsWith('/.well-known/')) {
          const chunks: Buffer[] = [];
          up.on('data', (c: Buffer) => chunks.push(c));
          up.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8').replaceAll(inner.url, frontUrl);
            const headers = { ...up.headers, 'content-length': String(Buffer.byteLength(body)) };
            res.writeHead(up.statusCode ?? 502, headers).end(body);
          });
          return;
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    // A client that goes away (a cut stream) takes the upstream request with it.
    res.on('close', () => upstream.destroy());
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };
  const sockets = new Set<import('node:net').Socket>();
  front.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  front.on('upgrade', (req: IncomingMessage, socket, head) => {
    requests.push(`UPGRADE ${req.url}`);
    const refused =
      options.replayPlane === false || (options.replayPlane === 'probe-only' && req.url?.includes('task='));
    if (refused) return socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    forwardUpgrade(req, socket, head, inner.url);
  });
  frontUrl = await listen(front);

  // The restart command reaches this control server, never the front: it is not agent traffic.
  const control = createServer((req, res) => {
    const lose = new URL(req.url ?? '/', 'http://x').searchParams.get('lose') === '1';
    void (async () => {
      await inner.close();
      if (lose) dbs.push(tempDbPath());
      inner = await startAgent({ dbPath: dbs.at(-1)!.path, faults: options.faults });
      restarts++;
      res.end('restarted');
    })().catch((err: Error) => res.writeHead(500).end(err.message));
  });
  const controlUrl = await listen(control);

  return {
    url: frontUrl,
    requests,
    get restarts() {
      return restarts;
    },
    restartCommand: (mode) =>
      `"${process.execPath}" -e "fetch('${controlUrl}/?lose=${mode === 'lose' ? 1 : 0}', { method: 'POST' })` +
      '.then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"',
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([new Promise((r) => front.close(r)), new Promise((r) => control.close(r))]);
      await inner.close();
      for (const db of dbs) db.cleanup();
    },
  };
}
