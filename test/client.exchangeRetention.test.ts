// What the rig's unary client keeps of an exchange once it is over (rig/client/http1Pool.ts,
// unaryExchange.ts): nothing. A load's client makes thousands of exchanges a second, and whatever a
// long-lived structure still points at survives the young generation's collections and is promoted,
// which makes every collection copy it (a pause on the generator's loop). Two such structures: the
// pool's queue of exchanges waiting for a connection, and the listeners of a caller's signal that a
// whole burst of iterations shares (Node's listener list keeps a link from each removed listener
// to the next, so the client listens once per signal).
import { getEventListeners, once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, expect, it, vi } from 'vitest';
import type { A2AHeaders } from '../rig/client/a2aHeaders.ts';
import type { ByteTally } from '../rig/client/byteTally.ts';
import { JsonRpcTransport } from '../rig/client/jsonRpcTransport.ts';
import { TransportError } from '../rig/client/transportError.ts';

const A2A: A2AHeaders = { generation: '1.0', extensions: [] };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A server that answers each request once `release` is called for it (one request per connection at a time). */
async function heldServer(): Promise<{ url: string; held: Array<() => void> }> {
  const held: Array<() => void> = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
    let buf = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buf += chunk;
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      const { id } = JSON.parse(buf.slice(end + 4, end + 4 + length)) as { id: number };
      buf = buf.slice(end + 4 + length);
      const body = JSON.stringify({ jsonrpc: '2.0', id, result: 'ok' });
      held.push(() =>
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        ),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`, held };
}

const servers: Server[] = [];
const sockets: Socket[] = [];
const transports: JsonRpcTransport[] = [];

afterEach(async () => {
  for (const t of transports.splice(0)) await t.close();
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) s.close();
});

function transport(connections: number): JsonRpcTransport {
  const t = new JsonRpcTransport({ connections });
  transports.push(t);
  return t;
}

/** Answers the calls one by one as they reach the server, until `calls` have settled. */
async function answerAll(server: { held: Array<() => void> }, calls: Promise<unknown>[]): Promise<void> {
  for (let answered = 0; answered < calls.length; answered++) {
    await vi.waitFor(() => expect(server.held.length).toBeGreaterThan(answered));
    server.held[answered]();
  }
  await Promise.all(calls);
}

it('lets go of an exchange that waited in the queue for a connection once it is over', async () => {
  const server = await heldServer();
  const t = transport(1);
  // The tally is the exchange's own object: while anything keeps the exchange, it keeps the tally.
  const tallies = [0, 1, 2].map((): ByteTally => ({ sent: 0, received: 0 }));
  const calls = tallies.map((tally) => t.call(server.url, 'GetTask', {}, A2A, { tally }));
  await answerAll(server, calls);
  const refs = tallies.map((tally) => new WeakRef(tally));
  tallies.length = 0;
  calls.length = 0;
  // Two turns and collections: what a settled promise's reactions held is released by then.
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  // The second and third waited in the queue (one connection); none of the three is kept.
  expect(refs.map((ref) => ref.deref() === undefined)).toEqual([true, true, true]);
});

it('listens once to a signal however many exchanges share it, and its abort still cuts each of them', async () => {
  const server = await heldServer();
  const t = transport(4);
  const shared = new AbortController();
  const calls = [0, 1, 2, 3, 4, 5].map(() => t.call(server.url, 'GetTask', {}, A2A, { signal: shared.signal }));
  await vi.waitFor(() => expect(server.held).toHaveLength(4));
  expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
  server.held[0]();
  expect(await calls[0]).toMatchObject({ ok: true, result: 'ok' });
  shared.abort();
  for (const call of calls.slice(1)) {
    const err = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).failure).toBe('aborted');
  }
  // A signal aborted already: the exchange fails at once, as before.
  const late = await t.call(server.url, 'GetTask', {}, A2A, { signal: shared.signal }).catch((e: unknown) => e);
  expect((late as TransportError).failure).toBe('aborted');
});
