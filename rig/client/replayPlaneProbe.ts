// Whether an agent offers the replay plane (the outbox's WebSocket at /events), found out without
// touching any task: a handshake at /events with no `task` at all. An agent that has the plane
// upgrades (the reference agent then closes with 4400, "task is required"); one without answers the
// upgrade with an HTTP status (404, 400, ...) or drops the connection. The engine asks once, when
// the environment opens, so a scenario that needs the plane is skipped before it sends anything.
import WebSocket from 'ws';
import type { Generation } from '../protocol/a2aTypes.ts';
import { accessRequestHeaders } from './a2aHeaders.ts';
import { credentialTls, type TargetAccess } from './credentials.ts';

export interface ReplayPlaneProbe {
  offered: boolean;
  /** What the agent did, for a skip reason or the log: "HTTP 404 on the upgrade", "upgraded ...". */
  detail: string;
}

const PROBE_TIMEOUT_MS = 3_000;

/** `rpcUrl` is the agent's JSON-RPC endpoint; /events is resolved against it, as ReplaySocket does. */
export function probeReplayPlane(
  rpcUrl: string,
  generation: Generation,
  extensions: readonly string[],
  access: TargetAccess = {},
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ReplayPlaneProbe> {
  const url = new URL('/events', rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return new Promise((resolve) => {
    let settled = false;
    const ws = new WebSocket(url, {
      headers: accessRequestHeaders({ generation, extensions }, access),
      ...(access.credentials ? credentialTls(access.credentials) : {}),
      handshakeTimeout: timeoutMs,
      perMessageDeflate: false,
      maxPayload: 64 * 1024,
    });
    const done = (result: ReplayPlaneProbe) => {
      if (settled) return;
      settled = true;
      resolve(result);
      ws.terminate();
    };
    ws.once('open', () => done({ offered: true, detail: `${url.origin}/events upgraded to a WebSocket` }));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      done({
        offered: false,
        detail: `${url.origin}/events answered the WebSocket upgrade with HTTP ${res.statusCode}`,
      });
    });
    ws.on('error', (err) =>
      done({ offered: false, detail: `${url.origin}/events refused the WebSocket upgrade: ${err.message}` }),
    );
  });
}
