// The named attacks that open streams and never read them (rig/attack/attackRegistry.ts: unread SSE
// streams, unread replay sockets) against the in-process reference agent with small stream bounds are
// refused or cut; a deliberately unprotected tiny server holds them, and servers built here show how
// a cut, a `Connection: close` and a refused subscription are told apart.
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent } from '../rig/agent/startAgent.ts';
import { ATTACKS } from '../rig/attack/attackRegistry.ts';
import { attackTarget, scriptedPromptOpener } from '../rig/attack/attackTarget.ts';
import type { AttackOutcome, AttackTarget } from '../rig/attack/attackTypes.ts';
import { tempDbPath } from './support/inProcessAgent.ts';
import { SWITCHING_PROTOCOLS, attack, kinds, startAttackTargets, type AttackTargets } from './support/attackTargets.ts';

let targets: AttackTargets;
let agentTarget: AttackTarget;
let openTarget: AttackTarget;
beforeAll(async () => {
  targets = await startAttackTargets();
  ({ agentTarget, openTarget } = targets);
});
afterAll(async () => targets?.close());

describe('stream attacks', () => {
  it(
    'unread-streams: beyond the per-task bound refused with -32029, ' +
      'the rest held; all held by the unprotected server',
    async () => {
      const { outcomes } = await attack('unread-streams', agentTarget, { holdMs: 1000 }, 4);
      const refused = outcomes.filter((o) => o.kind === 'refused' || o.kind === 'rate-limited');
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const o of refused) expect(o.code).toBe(-32029);
      expect(outcomes.every((o) => o.kind !== 'server-error' && o.kind !== 'accepted')).toBe(true);
      expect(kinds((await attack('unread-streams', openTarget, { holdMs: 1000 }, 4)).outcomes)).toEqual(['held']);
    },
  );

  it(
    'unread-replay: beyond the per-task bound closed with 1013, ' + 'the rest held; all held by the unprotected server',
    async () => {
      const { outcomes } = await attack('unread-replay', agentTarget, { holdMs: 1000 }, 4);
      const refused = outcomes.filter((o) => o.kind === 'refused');
      expect(refused.length).toBeGreaterThanOrEqual(2);
      for (const o of refused) expect(o.code).toBe(1013);
      expect(kinds((await attack('unread-replay', openTarget, { holdMs: 1000 }, 4)).outcomes)).toEqual(['held']);
    },
  );

  it(
    'an unread stream or replay socket the server cuts later is a cut, ' +
      'seen without reading (the probe write fails)',
    async () => {
      // A server that fills the stream it serves and destroys it after 300 ms, like an agent's buffer bound.
      const server = createHttpServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const fill = setInterval(() => res.write(`data: ${'x'.repeat(16 * 1024)}\n\n`), 5);
        setTimeout(() => {
          clearInterval(fill);
          res.destroy();
        }, 300);
        req.resume();
      });
      server.on('upgrade', (_req, socket: Socket) => {
        socket.on('error', () => {});
        socket.write(SWITCHING_PROTOCOLS);
        setTimeout(() => socket.destroy(), 300);
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const base = attackTarget({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
        const target = { ...base, openPrompt: openTarget.openPrompt };
        for (const name of ['unread-streams', 'unread-replay'] as const) {
          const { outcomes } = await attack(name, target, { holdMs: 4000, probeMs: 100 }, 2);
          for (const o of outcomes) {
            expect(o.kind).toBe('cut');
            expect(o.latencyMs).toBeGreaterThan(250);
            expect(o.latencyMs).toBeLessThan(3000);
          }
        }
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    },
  );

  it("unread-streams: a stream whose first snapshot overflows the agent's per-reader buffer bound is cut", async () => {
    const db = tempDbPath();
    const small = await startAgent({ dbPath: db.path, limits: { maxStreamBufferBytes: 64 * 1024 } });
    try {
      const base = attackTarget({ baseUrl: small.url });
      const target = {
        ...base,
        openPrompt: scriptedPromptOpener(base, {
          responseSchema: { type: 'object' },
          validPayload: {},
          artifactBytes: 900_000,
        }),
      };
      const { outcomes } = await attack('unread-streams', target, { holdMs: 3000, probeMs: 100 }, 2);
      for (const o of outcomes) {
        expect(o.kind).toBe('cut');
        expect(o.latencyMs).toBeLessThan(2500);
      }
    } finally {
      await small.close();
      db.cleanup();
    }
  });

  /** A raw HTTP/1.1 server serving every subscription as `serve` says; its sockets destroyed on close. */
  async function streamServer(
    serve: (socket: Socket, head: string) => void,
  ): Promise<{ target: AttackTarget; close: () => Promise<void> }> {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      let seen = '';
      const onData = (d: Buffer) => {
        seen += d.toString('latin1');
        if (!seen.includes('\r\n\r\n')) return;
        socket.off('data', onData);
        serve(socket, seen.slice(0, seen.indexOf('\r\n\r\n')).toLowerCase());
      };
      socket.on('data', onData);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = attackTarget({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
    return {
      target: { ...base, openPrompt: openTarget.openPrompt },
      close: async () => {
        sockets.forEach((s) => s.destroy());
        await new Promise((r) => server.close(r));
      },
    };
  }
  const SSE_HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n';
  const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;

  it(
    'unread-streams: an unbounded server that closes on bytes after a `Connection: ' +
      'close` request (h11, uvicorn) holds every stream, not cut by the probe',
    async () => {
      // Like h11: once the client said close, any further byte is a protocol error and the connection goes.
      const { target, close } = await streamServer((socket, head) => {
        socket.write(SSE_HEAD + chunk(': open\n\n'));
        if (/^connection: close$/m.test(head)) setTimeout(() => socket.once('data', () => socket.destroy()), 50);
      });
      try {
        const { outcomes } = await attack('unread-streams', target, { holdMs: 1_500, probeMs: 100 }, 2);
        expect(kinds(outcomes)).toEqual(['held']);
      } finally {
        await close();
      }
    },
  );

  const REFUSAL_FRAME = chunk('data: {"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}\n\n');
  /** A loaded box's Python peer: the refusal frame comes long after the head (well past any short grace). */
  const LATE_MS = 900;
  const refuseLate = (socket: Socket) => {
    socket.write(SSE_HEAD);
    setTimeout(() => socket.end(REFUSAL_FRAME + '0\r\n\r\n'), LATE_MS);
  };

  it.each([
    ['at once', (socket: Socket) => socket.end(SSE_HEAD + REFUSAL_FRAME + '0\r\n\r\n')],
    [`${LATE_MS} ms after the head`, refuseLate],
  ])(
    'unread-streams: a server that refuses every subscription (a2a-sdk 0.3: -32001 in the first frame, ' +
      '%s) has nothing to hold: nothing starts, and the notes say why',
    async (_when, serve) => {
      const { target, close } = await streamServer(serve);
      try {
        const outcomes: AttackOutcome[] = [];
        const report = await ATTACKS['unread-streams'].run(
          target,
          { holdMs: 3_000 },
          {
            ratePerSecond: 50,
            maxRequests: 3,
            durationMs: 2000,
            signal: new AbortController().signal,
            onOutcome: (o) => outcomes.push(o),
          },
        );
        expect(outcomes).toEqual([]);
        expect(report.started).toBe(0);
        expect(report.notes.join('\n')).toMatch(/refuses a subscription .*-32001.*no bound; nothing started/);
      } finally {
        await close();
      }
    },
  );
  it.each([
    ['no head while parked (headers only with the first event)', () => {}],
    ['a head and no event while parked', (socket: Socket) => socket.write(SSE_HEAD)],
  ])('unread-streams: a server that sends %s is attacked, not skipped: every stream held', async (_what, serve) => {
    const { target, close } = await streamServer(serve);
    try {
      const { outcomes, report } = await attack('unread-streams', target, { holdMs: 1_000, probeMs: 100 }, 2);
      expect(report.started).toBe(2);
      expect(kinds(outcomes)).toEqual(['held']);
    } finally {
      await close();
    }
  });

  it("unread-streams: an attack stream's error frame is a refusal whenever it comes, not a cut", async () => {
    let served = 0;
    const { target, close } = await streamServer((socket) => {
      // The preflight (the first subscription) is served; every later one refused late, as one loaded 0.3 peer does.
      if (served++ === 0) socket.write(SSE_HEAD + chunk('data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task"}}\n\n'));
      else refuseLate(socket);
    });
    try {
      const { outcomes } = await attack('unread-streams', target, { holdMs: 3_000, probeMs: 100 }, 2);
      expect(kinds(outcomes)).toEqual(['refused']);
      for (const o of outcomes) expect(o.code).toBe(-32001);
    } finally {
      await close();
    }
  });
});
