// The rig's own keep-alive HTTP/1.1 client for unary JSON-RPC (rig/client/http1Connection.ts,
// http1Pool.ts, unaryExchange.ts), against raw TCP servers that write exactly the bytes each case
// needs: framing (chunked with extensions and trailers, a reply split byte by byte, a body read to
// the connection's end), keep-alive reuse and what happens when the server lets a connection go,
// stray bytes that must not be taken for the next reply (no pipelining), and refusals that name
// their limit. Bounds on time and size against hostile agents are in client.hostileAgent*.test.ts.
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { type A2AHeaders } from '../rig/client/a2aHeaders.ts';
import { JsonRpcTransport } from '../rig/client/jsonRpcTransport.ts';
import { TransportError } from '../rig/client/transportError.ts';
import { freePort } from './support/localHost.ts';

const A2A: A2AHeaders = { generation: '1.0', extensions: [] };

interface Received {
  socket: Socket;
  id: number;
  head: string;
  /** Which connection (0-based, in accept order) carried it. */
  connection: number;
}

/** A TCP server that hands each complete request (head and Content-Length body) to `reply`. */
async function rawServer(
  reply: (r: Received) => void,
): Promise<{ url: string; server: Server; sockets: Socket[]; requests: Received[] }> {
  const sockets: Socket[] = [];
  const requests: Received[] = [];
  const server = createServer((socket) => {
    const connection = sockets.push(socket) - 1;
    socket.on('error', () => {});
    let buf = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buf += chunk;
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.slice(end + 4, end + 4 + length);
        buf = buf.slice(end + 4 + length);
        const r = { socket, id: body ? (JSON.parse(body) as { id: number }).id : 0, head, connection };
        requests.push(r);
        reply(r);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push({ server, sockets });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`, server, sockets, requests };
}

function response(body: string, extra = ''): string {
  return (
    'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`
  );
}
const result = (id: number, value: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: value });

const servers: Array<{ server: Server; sockets: Socket[] }> = [];
const transports: JsonRpcTransport[] = [];
function transport(options: ConstructorParameters<typeof JsonRpcTransport>[0] = {}): JsonRpcTransport {
  const t = new JsonRpcTransport(options);
  transports.push(t);
  return t;
}

afterEach(async () => {
  for (const t of transports.splice(0)) await t.close();
  for (const { server, sockets } of servers.splice(0)) {
    for (const s of sockets) s.destroy();
    server.close();
  }
});

async function failure(p: Promise<unknown>): Promise<TransportError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TransportError);
  return err as TransportError;
}

it('reuses one connection for sequential calls, sending each request as one HTTP/1.1 message', async () => {
  const s = await rawServer((r) => r.socket.write(response(result(r.id, { n: r.id }))));
  const t = transport();
  for (let i = 0; i < 20; i++)
    expect(await t.call(s.url, 'GetTask', { id: 't' }, A2A)).toMatchObject({
      ok: true,
      result: { n: expect.any(Number) },
    });
  expect(s.sockets).toHaveLength(1);
  expect(s.requests[0].head).toMatch(/^POST \/rpc HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
  expect(s.requests[0].head).toMatch(/\r\na2a-version: 1\.0\r\n/);
});

it('opens a fresh connection when the server closed an idle one, instead of writing into it', async () => {
  const s = await rawServer((r) => r.socket.write(response(result(r.id, 'ok'))));
  const t = transport();
  expect((await t.call(s.url, 'GetTask', {}, A2A)).ok).toBe(true);
  // The server lets the idle connection go (as a keep-alive timeout does)...
  s.sockets[0].end();
  await vi.waitFor(() => expect(t.openConnections).toBe(0));
  // ...and the next call succeeds on a new one.
  expect((await t.call(s.url, 'GetTask', {}, A2A)).ok).toBe(true);
  expect(s.sockets).toHaveLength(2);
});

it('does not reuse a connection the reply said to close', async () => {
  const s = await rawServer((r) => r.socket.write(response(result(r.id, 'ok'), 'connection: close\r\n')));
  const t = transport();
  for (let i = 0; i < 3; i++) expect((await t.call(s.url, 'GetTask', {}, A2A)).ok).toBe(true);
  expect(new Set(s.requests.map((r) => r.connection)).size).toBe(3);
});

it('reads chunked bodies with chunk extensions and trailers, and replies split into single bytes', async () => {
  let split = false;
  const s = await rawServer((r) => {
    const body = result(r.id, { text: 'héllo wörld' });
    const bytes = Buffer.from(body);
    const chunked =
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${(5).toString(16)};ext=1\r\n` +
      `${bytes.subarray(0, 5).toString('latin1')}\r\n${(bytes.length - 5).toString(16)}\r\n` +
      `${bytes.subarray(5).toString('latin1')}\r\n0\r\nx-trailer: yes\r\n\r\n`;
    const wire = Buffer.from(chunked, 'latin1');
    if (!split) return void r.socket.write(wire);
    let i = 0;
    const drip = () => {
      if (i < wire.length) r.socket.write(wire.subarray(i, ++i), () => setImmediate(drip));
    };
    drip();
  });
  const t = transport();
  expect(await t.call(s.url, 'GetTask', {}, A2A)).toMatchObject({ ok: true, result: { text: 'héllo wörld' } });
  split = true;
  expect(await t.call(s.url, 'GetTask', {}, A2A)).toMatchObject({ ok: true, result: { text: 'héllo wörld' } });
  expect(s.sockets).toHaveLength(1);
});

it('reads a body framed by the end of the connection', async () => {
  const s = await rawServer((r) =>
    r.socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n${result(r.id, 'until close')}`),
  );
  const t = transport();
  expect(await t.call(s.url, 'GetTask', {}, A2A)).toMatchObject({ ok: true, result: 'until close' });
  expect(await t.call(s.url, 'GetTask', {}, A2A)).toMatchObject({ ok: true, result: 'until close' });
});

it('never takes stray bytes after a reply for the next request’s reply (no pipelining)', async () => {
  const s = await rawServer((r) => {
    // The first request gets its reply and, behind it, a forged reply for the request id to come.
    if (r.id === 1) r.socket.write(response(result(1, 'first')) + response(result(2, 'forged')));
    else r.socket.write(response(result(r.id, 'genuine')));
  });
  const t = transport({ connections: 1 });
  expect(await t.call(s.url, 'GetTask', {}, A2A)).toMatchObject({ ok: true, result: 'first' });
  expect(await t.call(s.url, 'GetTask', {}, A2A)).toMatchObject({ ok: true, result: 'genuine' });
  expect(s.sockets).toHaveLength(2);
});

it('refuses headers past their byte bound, naming it', async () => {
  const s = await rawServer((r) =>
    r.socket.write(`HTTP/1.1 200 OK\r\nx-big: ${'h'.repeat(20_000)}\r\ncontent-length: 2\r\n\r\n{}`),
  );
  const err = await failure(transport().call(s.url, 'GetTask', {}, A2A));
  expect(err.failure).toBe('too-large');
  expect(err.message).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/rpc \(GetTask\): response headers exceed 16384 bytes$/);
});

it.each([
  ['a status line that is not HTTP', 'SSH-2.0-OpenSSH\r\n\r\n', /not an HTTP\/1\.x status line/],
  ['an HTTP/1.2 status line', 'HTTP/1.2 200 OK\r\ncontent-length: 2\r\n\r\n{}', /not an HTTP\/1\.x status line/],
  ['a two-digit status', 'HTTP/1.1 20 OK\r\ncontent-length: 2\r\n\r\n{}', /not an HTTP\/1\.x status line/],
  ['a status run into its reason', 'HTTP/1.1 200OK\r\ncontent-length: 2\r\n\r\n{}', /not an HTTP\/1\.x status line/],
  [
    'conflicting Content-Length headers',
    'HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}',
    /invalid content-length/,
  ],
  ['a bad chunk size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', /invalid chunk size line/],
  [
    'a chunk longer than declared',
    'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n',
    /a chunk is longer than its declared size/,
  ],
  [
    'an unsupported transfer coding',
    'HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\n\r\n',
    /unsupported transfer-encoding/,
  ],
])('%s is a protocol failure', async (_, wire, message) => {
  const s = await rawServer((r) => r.socket.write(wire));
  const err = await failure(transport().call(s.url, 'GetTask', {}, A2A));
  expect(err.failure).toBe('protocol');
  expect(err.message).toMatch(message);
});

it('a connection closed mid-reply is a socket failure, and the next call gets a fresh connection', async () => {
  const s = await rawServer((r) => {
    if (r.connection === 0) r.socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"jsonrpc"');
    else r.socket.write(response(result(r.id, 'ok')));
  });
  const t = transport();
  const err = await failure(t.call(s.url, 'GetTask', {}, A2A));
  expect(err.failure).toBe('socket');
  expect(err.httpStatus).toBe(200);
  expect(err.message).toMatch(/closed the connection before the reply was complete/);
  expect((await t.call(s.url, 'GetTask', {}, A2A)).ok).toBe(true);
});

it('a refused connection is a connect failure', async () => {
  // Below the ephemeral range, so loopback cannot connect the socket to itself (see freePort).
  const url = `http://127.0.0.1:${await freePort()}/`;
  const err = await failure(transport().call(url, 'GetTask', {}, A2A));
  expect(err.failure).toBe('connect');
  expect(err.message).toMatch(/cannot connect \(ECONNREFUSED\)/);
});

it(
  'queues calls past the pool size in order, ' +
    'and an aborted queued call ends at once without disturbing the others',
  async () => {
    const held: Received[] = [];
    const s = await rawServer((r) => held.push(r));
    const t = transport({ connections: 1 });
    const first = t.call(s.url, 'GetTask', { n: 1 }, A2A);
    const abort = new AbortController();
    const queued = t.call(s.url, 'GetTask', { n: 2 }, A2A, { signal: abort.signal });
    const third = t.call(s.url, 'GetTask', { n: 3 }, A2A);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    abort.abort();
    expect((await failure(queued)).failure).toBe('aborted');
    held[0].socket.write(response(result(held[0].id, 'one')));
    expect(await first).toMatchObject({ result: 'one' });
    await vi.waitFor(() => expect(held).toHaveLength(2));
    held[1].socket.write(response(result(held[1].id, 'three')));
    expect(await third).toMatchObject({ result: 'three' });
    expect(s.sockets).toHaveLength(1);
  },
);

it('a caller abort in flight drops that connection; the next call works on a new one', async () => {
  const s = await rawServer((r) => {
    if (r.connection > 0) r.socket.write(response(result(r.id, 'ok')));
  });
  const t = transport({ connections: 1 });
  const abort = new AbortController();
  const pending = t.call(s.url, 'GetTask', {}, A2A, { signal: abort.signal });
  await vi.waitFor(() => expect(s.requests).toHaveLength(1));
  abort.abort();
  const err = await failure(pending);
  expect(err.failure).toBe('aborted');
  expect(err.message).toMatch(/was aborted by the rig$/);
  expect((await t.call(s.url, 'GetTask', {}, A2A)).ok).toBe(true);
});

it('the idle bound starts over with each body chunk: a slow but steady body completes', async () => {
  const s = await rawServer((r) => {
    const body = result(r.id, 'x'.repeat(8));
    r.socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n`);
    let i = 0;
    const timer = setInterval(() => {
      r.socket.write(body.slice(i, i + 4));
      i += 4;
      if (i >= body.length) clearInterval(timer);
    }, 60);
  });
  // 300 ms of silence allowed, the whole body takes about 10 × 60 ms.
  const t = transport({ limits: { bodyIdleTimeoutMs: 300, requestTimeoutMs: 10_000 } });
  expect(await t.call(s.url, 'GetTask', {}, A2A)).toMatchObject({ ok: true, result: 'xxxxxxxx' });
});

it('refuses a header value that would split the request, before sending anything', async () => {
  const s = await rawServer((r) => r.socket.write(response(result(r.id, 'ok'))));
  const t = transport();
  await expect(
    t.call(s.url, 'GetTask', {}, { generation: '1.0', extensions: ['urn:x\r\nx-injected: 1'] }),
  ).rejects.toThrow(/header value must be visible ASCII without line breaks/);
  expect(s.requests).toHaveLength(0);
});

it('a body that stalls is cut at the idle bound even when the headers bound is far longer', async () => {
  const s = await rawServer((r) => r.socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"jsonrpc":'));
  const t = transport({ limits: { headersTimeoutMs: 20_000, bodyIdleTimeoutMs: 200, requestTimeoutMs: 20_000 } });
  const started = performance.now();
  const err = await failure(t.call(s.url, 'GetTask', {}, A2A));
  expect(err.failure).toBe('idle-timeout');
  expect(err.message).toMatch(/the body stalled for more than 200 ms$/);
  // Cut by the idle bound, not the 20 s headers or overall bounds (generous slack for a loaded box).
  expect(performance.now() - started).toBeLessThan(5_000);
});

it('sends the A2A headers of each call, also when a caller changes its extensions array in place', async () => {
  const s = await rawServer((r) => r.socket.write(response(result(r.id, 'ok'))));
  const t = transport();
  const extensions = ['urn:a2a-rig:test:one'];
  await t.call(s.url, 'GetTask', {}, { generation: '1.0', extensions });
  extensions.push('urn:a2a-rig:test:two');
  await t.call(s.url, 'GetTask', {}, { generation: '1.0', extensions });
  await t.call(s.url, 'GetTask', {}, { generation: '0.3', extensions });
  await t.call(s.url, 'GetTask', {}, { generation: '1.0', extensions: [], bearerToken: 'tok' });
  expect(s.requests.map((r) => r.head.split('\r\n').filter((l) => /^(a2a-|x-a2a-|authorization)/.test(l)))).toEqual([
    ['a2a-version: 1.0', 'a2a-extensions: urn:a2a-rig:test:one'],
    ['a2a-version: 1.0', 'a2a-extensions: urn:a2a-rig:test:one, urn:a2a-rig:test:two'],
    ['x-a2a-extensions: urn:a2a-rig:test:one, urn:a2a-rig:test:two'],
    ['a2a-version: 1.0', 'authorization: Bearer tok'],
  ]);
});
