// The user's credentials reach every exchange the client makes with the agent (the card GET, unary
// calls, SSE streams, the replay socket), `--activate` extensions join the activation header of
// every call, a per-call bearer token replaces the user's Authorization instead of doubling it, and
// a 401/403 names what the card's securitySchemes ask for.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, TransportError, userMessage } from '../rig/client/index.ts';
import type { Credentials } from '../rig/client/credentials.ts';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { attackTargetOf } from '../rig/engine/dos/loopbackTarget.ts';
import { requestHead } from '../rig/attack/attackRequests.ts';

const SECRET = 'Bearer s3cret-credential-value';
const CREDENTIALS: Credentials = {
  headers: [
    ['Authorization', SECRET],
    ['X-Tenant', 'tenant-7'],
  ],
};
const REQUIRED = 'urn:example:required-ext';

let server: Server | undefined;
let sockets: WebSocketServer | undefined;
afterEach(async () => {
  sockets?.close();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = sockets = undefined;
});

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
}

/** An agent that records each request's headers: 401 to POSTs when `refuse`, else TaskNotFound. */
async function recordingAgent(options: { refuse?: boolean; rpc403?: boolean; card?: Record<string, unknown> } = {}) {
  const seen: Seen[] = [];
  let url = '';
  server = createServer((req, res) => {
    seen.push({ method: req.method!, path: req.url!, headers: req.headers, rawHeaders: req.rawHeaders });
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ ...cardOf(url), ...options.card }));
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (options.refuse) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' });
        return res.end('unauthorized');
      }
      const { id } = JSON.parse(body) as { id: number };
      // rpc403: an extension's own refusal, a JSON-RPC error answered with 403 (as REST maps -32043).
      const error = options.rpc403 ? { code: -32043, message: 'not entitled' } : { code: -32001, message: 'no task' };
      res.writeHead(options.rpc403 ? 403 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error }));
    });
  });
  // Refusing: the upgrade is answered 401 as well.
  sockets = new WebSocketServer({ server, verifyClient: (_info, done) => done(!options.refuse, 401) });
  sockets.on('connection', (ws, req) => {
    seen.push({ method: 'WS', path: req.url!, headers: req.headers, rawHeaders: req.rawHeaders });
    ws.close(4404, 'unknown task');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, seen };
}

function cardOf(url: string) {
  return {
    name: 'locked',
    description: 'x',
    version: '1',
    supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true, extensions: [{ uri: HITL_PROMPT_URI, params: {} }] },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
}

function authorizations(s: Seen): string[] {
  return s.rawHeaders.filter((_, i) => i % 2 === 0 && s.rawHeaders[i]!.toLowerCase() === 'authorization');
}

describe('credentials on every exchange', () => {
  it('sends the headers on the card GET, unary calls, SSE streams and the replay socket', async () => {
    const { url, seen } = await recordingAgent();
    const client = await A2AClient.open(url, { credentials: CREDENTIALS, activate: [REQUIRED] });
    try {
      await client.getTask('t-1');
      const stream = await client.sendStream(userMessage({ text: 'hi' }));
      expect(stream.ok).toBe(false);
      await client.replay('t-1').then(
        (s) => s.close(),
        () => undefined,
      );
    } finally {
      await client.close();
    }
    const kinds = seen.map((s) => s.method);
    expect(kinds).toEqual(['GET', 'POST', 'POST', 'WS']);
    for (const s of seen) {
      expect(s.headers.authorization, `${s.method} ${s.path}`).toBe(SECRET);
      expect(s.headers['x-tenant'], `${s.method} ${s.path}`).toBe('tenant-7');
    }
    // --activate joins the rig's own activation, on calls and on the socket alike.
    for (const s of seen.slice(1)) expect(s.headers['a2a-extensions']).toBe(`${HITL_PROMPT_URI}, ${REQUIRED}`);
  });

  it("a call's own bearer token replaces the user's Authorization (one header, not two)", async () => {
    const { url, seen } = await recordingAgent();
    const client = await A2AClient.open(url, { credentials: CREDENTIALS });
    try {
      await client.getTask('t-1', { bearerToken: 'decider-token' });
      await client.sendStream(userMessage({ text: 'hi' }), { bearerToken: 'decider-token' });
    } finally {
      await client.close();
    }
    for (const s of seen.slice(1)) {
      expect(authorizations(s)).toHaveLength(1);
      expect(s.headers.authorization).toBe('Bearer decider-token');
      expect(s.headers['x-tenant']).toBe('tenant-7');
    }
  });
});

describe('401 and 403 name what the card asks for', () => {
  it('a unary call and a stream refused with 401 name the bearer scheme; a refused replay socket is told', async () => {
    const { url } = await recordingAgent({ refuse: true });
    const refused: string[] = [];
    const client = await A2AClient.open(url, { onRefused: (err) => refused.push(err.failure) });
    try {
      const socket = (await client.replay('t-1').catch((e: unknown) => e)) as TransportError;
      expect(socket.failure).toBe('unauthorized');
      for (const call of [() => client.getTask('t-1'), () => client.sendStream(userMessage({ text: 'hi' }))]) {
        const err = (await call().then(
          () => undefined,
          (e: unknown) => e,
        )) as TransportError;
        expect(err).toBeInstanceOf(TransportError);
        expect(err.failure).toBe('unauthorized');
        expect(err.httpStatus).toBe(401);
        expect(err.message).toContain('HTTP 401 from POST');
        expect(err.message).toContain('the card asks for bearer (HTTP Authorization: Bearer …)');
        expect(err.message).toContain("pass it with --header 'Authorization: Bearer $TOKEN'");
      }
    } finally {
      await client.close();
    }
    expect(refused).toEqual(['unauthorized', 'unauthorized', 'unauthorized']);
  });

  it("a 403 carrying the agent's own JSON-RPC error is its answer, not the rig refused", async () => {
    const { url } = await recordingAgent({ rpc403: true });
    const refused: string[] = [];
    const client = await A2AClient.open(url, { onRefused: (err) => refused.push(err.message) });
    try {
      const got = await client.getTask('t-1');
      expect(got.ok ? undefined : [got.error.code, got.meta.httpStatus]).toEqual([-32043, 403]);
      const stream = await client.sendStream(userMessage({ text: 'hi' }));
      expect(stream.ok ? undefined : stream.error.code).toBe(-32043);
    } finally {
      await client.close();
    }
    expect(refused).toEqual([]);
  });

  it('a card behind auth: the card GET answered 401 says to pass credentials with --header', async () => {
    server = createServer((req, res) => res.writeHead(401).end());
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await expect(A2AClient.open(url)).rejects.toThrow(
      /answered HTTP 401: the agent card itself needs credentials; pass them with --header/,
    );
  });

  it('a v0.3 card: an apiKey scheme named by `security` gives its header', async () => {
    const card = {
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' }, other: { type: 'oauth2' } },
      securityRequirements: undefined,
      security: [{ key: [] }],
    };
    const { url } = await recordingAgent({ refuse: true, card });
    const client = await A2AClient.open(url);
    try {
      const err = (await client.getTask('t-1').catch((e: unknown) => e)) as TransportError;
      expect(err.message).toContain(
        "the card asks for key (API key in the X-API-Key header) — pass it with --header 'X-API-Key: $API_KEY'",
      );
      expect(err.message).not.toContain('oauth2');
    } finally {
      await client.close();
    }
  });
});

describe('requests built outside the JSON-RPC transport', () => {
  it("an attack's request head carries the credentials and --activate (a DoS verdict is not about a 401)", () => {
    const target = attackTargetOf({
      directUrl: 'http://127.0.0.1:9/',
      directRpcUrl: 'http://127.0.0.1:9/',
      generation: '1.0',
      binding: 'JSONRPC',
      hitlDeclared: true,
      sourceAddress: '127.0.0.2',
      access: { credentials: CREDENTIALS, activate: [REQUIRED] },
    });
    if ('refused' in target) throw new Error(target.refused);
    const head = requestHead(target, 'POST', '/', { contentLength: 2 });
    expect(head).toContain(`authorization: ${SECRET}\r\n`);
    expect(head).toContain('x-tenant: tenant-7\r\n');
    expect(head).toContain(`a2a-extensions: ${HITL_PROMPT_URI}, ${REQUIRED}\r\n`);
  });
});
