// The Python test peers' DoS guards (test/peers/python/dos_guards.py), on the wire with raw sockets
// from loopback, both SDK generations: each guard working on a peer without flags, and each fault
// flag removing it on a peer with all six. uvicorn 0.54 had only the 16 KiB head bound of these;
// the rest (body bound, parse and depth refusals, headers/request timeouts, connection bounds) are
// the peer's own. Counts are small and bounded: one 2 MiB body, 600 connections, three slow sockets.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonPeerMissing, startPythonPeer, type PeerSdk, type PythonPeer } from './support/pythonPeers.ts';

const FLAGS = [
  'no-body-limit',
  'parse-errors-500',
  'no-depth-limit',
  'no-request-timeouts',
  'no-header-limit',
  'no-connection-limit',
];
const MIB = 1024 * 1024;
const ATTACKER = '127.0.0.2';
const METHOD: Record<PeerSdk, string> = { '1.3.0': 'SendMessage', '0.3.26': 'message/send' };

function open(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, localAddress }, () => resolve(s));
    s.once('error', reject);
  });
}

interface Seen {
  /** The status line's code, once a reply head arrived. */
  status?: number;
  /** The whole reply so far. */
  text: string;
  /** ms after watch() began: first reply byte, close. */
  repliedAt?: number;
  closedAt?: number;
}

/** Watches a socket: what came back and when it closed (errors count as a close). */
function watch(s: Socket): { seen: Seen; until(cond: (seen: Seen) => boolean, boundMs: number): Promise<Seen> } {
  const t0 = performance.now();
  const seen: Seen = { text: '' };
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  s.on('data', (chunk) => {
    seen.repliedAt ??= performance.now() - t0;
    seen.text += chunk.toString('latin1');
    const m = /^HTTP\/1\.1 (\d{3})/.exec(seen.text);
    if (m) seen.status = Number(m[1]);
    poke();
  });
  const closed = () => {
    seen.closedAt ??= performance.now() - t0;
    poke();
  };
  s.on('close', closed);
  s.on('error', closed);
  return {
    seen,
    until: (cond, boundMs) =>
      new Promise((resolve) => {
        const check = () => {
          if (!cond(seen)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(seen);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          resolve(seen);
        }, boundMs);
        waiters.add(check);
        check();
      }),
  };
}

const replied = (seen: Seen) => seen.status !== undefined && /\r\n\r\n[\s\S]*[}\w]$/.test(seen.text);

/** One POST on a fresh socket; resolves with the reply (or what happened within the bound). */
async function post(port: number, body: Buffer | string, extraHead = '', boundMs = 10_000): Promise<Seen> {
  const s = await open(port);
  const w = watch(s);
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  s.write(
    'POST / HTTP/1.1\r\nHost: peer\r\nContent-Type: application/json\r\n' +
      `A2A-Version: 1.0\r\n${extraHead}Content-Length: ${bytes.length}\r\n\r\n`,
  );
  s.write(bytes);
  const seen = await w.until((x) => replied(x) || x.closedAt !== undefined, boundMs);
  s.destroy();
  return seen;
}

function answer(sdk: PeerSdk, payload: string): string {
  const metadata = `"metadata":{"hitl_response_for":{"prompt_id":"p1","payload":${payload}}}`;
  const message =
    sdk === '1.3.0'
      ? `{"messageId":"m1","role":"ROLE_USER","taskId":"t1","parts":[{"text":"x"}],${metadata}}`
      : '{"kind":"message","messageId":"m1","role":"user","taskId":"t1",' +
        `"parts":[{"kind":"text","text":"x"}],${metadata}}`;
  return `{"jsonrpc":"2.0","id":1,"method":"${METHOD[sdk]}","params":{"message":${message}}}`;
}

/**
 * Writes `pieces` a few ms apart and stops at the first reply byte or the close: a peer that refuses
 * early and closes would otherwise reset the connection over bytes it never read, and the reset can
 * drop its reply before the client reads it.
 */
async function trickle(s: Socket, seen: Seen, pieces: Iterable<string>): Promise<void> {
  for (const piece of pieces) {
    if (seen.repliedAt !== undefined || seen.closedAt !== undefined || !s.writable) return;
    s.write(piece);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const SHORT_TIMEOUTS = { A2A_PEER_HEADERS_TIMEOUT_S: '1.5', A2A_PEER_REQUEST_TIMEOUT_S: '3' };

const rpcCode = (seen: Seen) => Number(/"code":\s*(-?\d+)/.exec(seen.text)?.[1]);

for (const sdk of ['1.3.0', '0.3.26'] as const) {
  const missing = pythonPeerMissing(sdk);
  describe.skipIf(missing !== undefined)(`the a2a-sdk ${sdk} peer's DoS guards, and the flags that remove them`, () => {
    let guarded: PythonPeer;
    let unguarded: PythonPeer;
    let g: number;
    let u: number;
    beforeAll(async () => {
      // The guards' timeouts shortened through the environment (dos_guards.py): 1.5 s for the headers,
      // 3 s for a whole request, so the slow-client test takes seconds; the mechanism is the same.
      [guarded, unguarded] = await Promise.all([
        startPythonPeer({ sdk, env: SHORT_TIMEOUTS }),
        startPythonPeer({ sdk, faults: FLAGS, env: SHORT_TIMEOUTS }),
      ]);
      [g, u] = [Number(new URL(guarded.url).port), Number(new URL(unguarded.url).port)];
    }, 60_000);
    afterAll(async () => {
      await Promise.all([guarded?.close(), unguarded?.close()]);
    });

    it(
      'a 2 MiB body: 413 before any of it is sent (Content-Length) ' +
        'and while it streams (chunked); no-body-limit reads it whole',
      async () => {
        const big = Buffer.from(answer(sdk, `{"approved":true,"comment":"${'a'.repeat(2 * MIB)}"}`));
        for (const [port, shouldRefuse] of [
          [g, true],
          [u, false],
        ] as const) {
          const s = await open(port);
          const w = watch(s);
          s.write(
            `POST / HTTP/1.1\r\nHost: peer\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`,
          );
          const early = await w.until(replied, 2_000);
          if (shouldRefuse) {
            expect(early.status, 'refused on the Content-Length alone').toBe(413);
            expect(early.text).toMatch(/connection: close/i);
            expect(rpcCode(early)).toBe(-32600);
          } else {
            expect(early.status, 'no-body-limit waits for the body').toBeUndefined();
            s.write(big);
            const whole = await w.until(replied, 10_000);
            expect(whole.status, 'read whole, then judged as an answer to an unknown prompt').toBe(409);
          }
          s.destroy();
        }
        // Chunked: no Content-Length to refuse on; the bound holds while the body streams.
        const s = await open(g);
        const w = watch(s);
        s.write(
          'POST / HTTP/1.1\r\nHost: peer\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        await trickle(
          s,
          w.seen,
          Array.from({ length: 40 }, () => `10000\r\n${'a'.repeat(0x10000)}\r\n`),
        );
        const streamed = await w.until(replied, 5_000);
        s.destroy();
        expect(streamed.status).toBe(413);
      },
    );

    it('JSON nested 10,000 deep: 400 -32600 before any parse; no-depth-limit: a 500', async () => {
      const deep = answer(sdk, `${'['.repeat(10_000)}${']'.repeat(10_000)}`);
      const refused = await post(g, deep);
      expect(refused.status).toBe(400);
      expect(rpcCode(refused)).toBe(-32600);
      expect((await post(u, deep)).status).toBe(500);
    });

    it('malformed JSON and a body that is not UTF-8: JSON-RPC -32700; parse-errors-500: a 500', async () => {
      const malformed = '{"jsonrpc": "2.0", "id": 1, "method": ';
      const badUtf8 = Buffer.from(
        answer(sdk, '{"approved":true,"comment":"\u0000"}').replace('\\u0000', 'XX'),
        'latin1',
      );
      badUtf8[badUtf8.indexOf('XX')] = 0xff;
      for (const body of [malformed, badUtf8]) {
        const refused = await post(g, body);
        expect(refused.status).toBe(200);
        expect(rpcCode(refused)).toBe(-32700);
        expect((await post(u, body)).status).toBe(500);
      }
    });

    it('a 1 MiB header block: 400 (16 KiB head bound); no-header-limit: read whole and answered', async () => {
      const pad = Array.from({ length: 1024 }, (_, i) => `X-Pad-${i}: ${'a'.repeat(1000)}\r\n`);
      const body = answer(sdk, '{"approved":true}');
      const s = await open(g);
      const w = watch(s);
      await trickle(s, w.seen, ['POST / HTTP/1.1\r\nHost: peer\r\n', ...pad]);
      const refused = await w.until(replied, 5_000);
      s.destroy();
      expect(refused.status).toBe(400);
      expect(refused.text.length, 'refused after the first 16 KiB, not after the whole MiB').toBeGreaterThan(0);
      expect((await post(u, body, pad.join(''))).status).toBe(409);
    });

    it(
      'slowloris cut (408) at the headers timeout after its first byte, a slow body at the request timeout, ' +
        'an idle socket closed at the headers timeout; no-request-timeouts holds all three',
      async () => {
        const slow = async (port: number, first: string, drip: string | null, boundMs: number) => {
          const s = await open(port, ATTACKER);
          const w = watch(s);
          s.write(first);
          const timer = drip === null ? undefined : setInterval(() => s.writable && s.write(drip), 250);
          // A copy: destroying the socket below would stamp a close of our own on the live record.
          const seen = { ...(await w.until((x) => x.closedAt !== undefined, boundMs)) };
          clearInterval(timer);
          s.destroy();
          return seen;
        };
        const head = 'POST / HTTP/1.1\r\nHost: peer\r\n';
        const bodyHead = `${head}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n`;
        const [loris, body, idle, lorisHeld, bodyHeld, idleHeld] = await Promise.all([
          slow(g, head, 'X', 5_000),
          slow(g, bodyHead, 'a', 7_000),
          slow(g, '', null, 5_000),
          slow(u, head, 'X', 7_000),
          slow(u, bodyHead, 'a', 7_000),
          slow(u, '', null, 7_000),
        ]);
        expect(loris.status).toBe(408);
        expect(loris.closedAt!).toBeGreaterThan(1_300);
        expect(loris.closedAt!).toBeLessThan(4_000);
        expect(body.status).toBe(408);
        expect(body.closedAt!).toBeGreaterThan(2_800);
        expect(body.closedAt!).toBeLessThan(6_000);
        expect(idle.status, 'an idle socket is closed, not answered').toBeUndefined();
        expect(idle.closedAt!).toBeGreaterThan(1_300);
        expect(idle.closedAt!).toBeLessThan(4_000);
        // Held past twice every guard timeout.
        for (const held of [lorisHeld, bodyHeld, idleHeld])
          expect(held.closedAt, 'held past every guard timeout').toBeUndefined();
      },
      20_000,
    );

    it(
      'connections beyond 512 from one client are closed at once and ' +
        'another client is still served; no-connection-limit keeps them all',
      async () => {
        for (const [port, bounded] of [
          [g, true],
          [u, false],
        ] as const) {
          const sockets: Socket[] = [];
          // Each watched from its own connect, so "at once" is per socket however long 600 connects take.
          const watched = await Promise.all(
            Array.from({ length: 600 }, async () => {
              const s = await open(port, ATTACKER);
              sockets.push(s);
              return watch(s);
            }),
          );
          await Promise.all(watched.map((w) => w.until((x) => x.closedAt !== undefined, 1_000)));
          // Well inside the 1.5 s idle cut (SHORT_TIMEOUTS): a socket closed within 700 ms of its connect was shed.
          const cut = watched.filter((w) => w.seen.closedAt !== undefined && w.seen.closedAt < 700).length;
          const card = await fetch(new URL('.well-known/agent-card.json', port === g ? guarded.url : unguarded.url));
          sockets.forEach((s) => s.destroy());
          expect(cut).toBe(bounded ? 600 - 512 : 0);
          expect(card.status).toBe(200);
        }
      },
      30_000,
    );
  });
}
