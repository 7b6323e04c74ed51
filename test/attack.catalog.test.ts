// Each named attack (rig/attack/attackRegistry.ts) against the in-process reference agent, with
// small timeouts and stream bounds, gets the refusal it expects; against a deliberately unprotected
// tiny server (no timeouts, no size limits, no stream bounds) the same attack is held or accepted,
// so every expectation below can fail.
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../rig/agent/startAgent.ts';
import { ATTACKS, type AttackName } from '../rig/attack/attackRegistry.ts';
import { attackExchange } from '../rig/attack/attackSocket.ts';
import { attackTarget, scriptedPromptOpener } from '../rig/attack/attackTarget.ts';
import type { AttackOutcome, AttackReport, AttackTarget, LivePrompt } from '../rig/attack/attackTypes.ts';
import { tempDbPath } from './support/agentFixture.ts';

const PATTERN_SCHEMA = {
  type: 'object',
  properties: { code: { type: 'string', pattern: '^(a+)+$' } },
  required: ['code'],
};

let agent: RunningAgent;
let cleanupDb: () => void;
let agentTarget: AttackTarget;
let open: { url: string; close: () => Promise<void> };
let openTarget: AttackTarget;

/** No timeouts, no header or body limit, every body read whole and answered 200 with a JSON-RPC result; streams and upgrades kept open forever. */
async function unprotectedServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createHttpServer(
    { headersTimeout: 0, requestTimeout: 0, maxHeaderSize: 64 * 1024 * 1024 },
    (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('latin1')));
      req.on('end', () => {
        if (/:subscribe$/.test(req.url ?? '') || /SubscribeToTask|tasks\/resubscribe/.test(body)) {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(': open\n\n');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}}}');
      });
    },
  );
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (_req, socket: Socket) => {
    socket.on('error', () => {});
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: x\r\n\r\n',
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => server.close(r));
    },
  };
}

beforeAll(async () => {
  const db = tempDbPath();
  cleanupDb = db.cleanup;
  agent = await startAgent({
    dbPath: db.path,
    headersTimeoutMs: 500,
    requestTimeoutMs: 1000,
    limits: { maxStreamsPerTask: 2 },
  });
  const base = attackTarget({ baseUrl: agent.url });
  agentTarget = {
    ...base,
    openPrompt: scriptedPromptOpener(base, { responseSchema: PATTERN_SCHEMA, validPayload: { code: 'aaa' } }),
  };
  open = await unprotectedServer();
  let n = 0;
  openTarget = {
    ...attackTarget({ baseUrl: open.url }),
    openPrompt: async (): Promise<LivePrompt> => ({
      taskId: `t${++n}`,
      promptId: `p${n}`,
      responseSchema: PATTERN_SCHEMA,
      validPayload: { code: 'aaa' },
    }),
  };
});

afterAll(async () => {
  await agent?.close();
  cleanupDb?.();
  await open?.close();
});

async function attack(
  name: AttackName,
  target: AttackTarget,
  params: Record<string, number> = {},
  count = 3,
): Promise<{ outcomes: AttackOutcome[]; report: AttackReport }> {
  const outcomes: AttackOutcome[] = [];
  const report = await ATTACKS[name].run(target, params, {
    ratePerSecond: 50,
    maxRequests: count,
    durationMs: 2000,
    signal: new AbortController().signal,
    onOutcome: (o) => outcomes.push(o),
  });
  expect(report.settled).toBe(count);
  expect(outcomes).toHaveLength(count);
  return { outcomes, report };
}

const kinds = (outcomes: AttackOutcome[]) => [...new Set(outcomes.map((o) => o.kind))];

describe('payload attacks', () => {
  it('oversized-answer: 413 before the body ends from the agent; read whole and accepted by the unprotected server', async () => {
    const refused = await attack('oversized-answer', agentTarget, { refusalWaitMs: 300 });
    for (const o of refused.outcomes) expect(o).toMatchObject({ kind: 'refused', status: 413, beforeBodyEnd: true });
    const held = await attack('oversized-answer', openTarget, { refusalWaitMs: 100 });
    for (const o of held.outcomes) expect(o).toMatchObject({ kind: 'accepted', beforeBodyEnd: false });
  });

  it('deep-answer: refused by the nesting bound; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('deep-answer', agentTarget);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', status: 422, code: -32011 });
    expect(kinds((await attack('deep-answer', openTarget)).outcomes)).toEqual(['accepted']);
  });

  it('deep-answer starts nothing, saying why, without a live prompt and a valid payload (a refusal then proves no nesting bound)', async () => {
    const noPayload = {
      ...openTarget,
      openPrompt: async (): Promise<LivePrompt> => ({
        taskId: 't',
        promptId: 'p',
        responseSchema: PATTERN_SCHEMA,
        validPayload: undefined,
      }),
    };
    const without = await attack('deep-answer', noPayload, {}, 0);
    expect(without.outcomes).toEqual([]);
    expect(without.report.notes.join(' ')).toMatch(/no valid object payload/);
    const { openPrompt: _none, ...noPrompts } = openTarget;
    const blind = await attack('deep-answer', noPrompts, {}, 0);
    expect(blind.outcomes).toEqual([]);
    expect(blind.report.notes.join(' ')).toMatch(/needs a live prompt/);
  });

  it("pattern-backtracking: aims at the schema's pattern and is refused by the linear matcher; accepted by the unprotected server", async () => {
    const { outcomes } = await attack('pattern-backtracking', agentTarget, { repeat: 30 });
    for (const o of outcomes) {
      expect(o).toMatchObject({ kind: 'refused', code: -32011 });
      expect(o.latencyMs).toBeLessThan(2000);
    }
    expect(kinds((await attack('pattern-backtracking', openTarget)).outcomes)).toEqual(['accepted']);
  });

  it('pattern-backtracking starts nothing and says so when the schema has no pattern', async () => {
    const plain = {
      ...agentTarget,
      openPrompt: scriptedPromptOpener(agentTarget, { responseSchema: { type: 'object' }, validPayload: {} }),
    };
    const report = await ATTACKS['pattern-backtracking'].run(
      plain,
      {},
      { ratePerSecond: 50, maxRequests: 3, durationMs: 500, signal: new AbortController().signal, onOutcome: () => {} },
    );
    expect(report).toMatchObject({ started: 0, settled: 0 });
    expect(report.notes.join(' ')).toMatch(/no `pattern` keyword/);
  });
});

describe('answer attacks', () => {
  it('duplicate-answers: 409/-32010 for every duplicate; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('duplicate-answers', agentTarget, { prompts: 2 }, 4);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', status: 409, code: -32010 });
    expect(kinds((await attack('duplicate-answers', openTarget, { prompts: 2 })).outcomes)).toEqual(['accepted']);
  });

  it('unknown-prompt: 409/-32010; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('unknown-prompt', agentTarget);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', status: 409, code: -32010 });
    expect(kinds((await attack('unknown-prompt', openTarget)).outcomes)).toEqual(['accepted']);
  });

  it('answer attacks that need a live prompt start nothing without one, and say so', async () => {
    const report = await ATTACKS['unknown-prompt'].run(
      attackTarget({ baseUrl: agent.url }),
      {},
      { ratePerSecond: 50, maxRequests: 3, durationMs: 500, signal: new AbortController().signal, onOutcome: () => {} },
    );
    expect(report.started).toBe(0);
    expect(report.notes.join(' ')).toMatch(/opens no prompts/);
  });
});

describe('malformed attacks', () => {
  it('malformed-json: every variant a -32700 refusal, never a 5xx; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('malformed-json', agentTarget, {}, 6);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', code: -32700 });
    expect(kinds((await attack('malformed-json', openTarget, {}, 6)).outcomes)).toEqual(['accepted']);
  });

  it('bad-utf8: -32700 refusals; accepted by the unprotected server', async () => {
    const { outcomes } = await attack('bad-utf8', agentTarget, {}, 4);
    for (const o of outcomes) expect(o).toMatchObject({ kind: 'refused', code: -32700 });
    expect(kinds((await attack('bad-utf8', openTarget, {}, 4)).outcomes)).toEqual(['accepted']);
  });

  it('huge-headers: 431 (or a close); accepted by a server without a header limit', async () => {
    const { outcomes } = await attack('huge-headers', agentTarget);
    for (const o of outcomes) expect(o.kind === 'cut' || (o.kind === 'refused' && o.status === 431)).toBe(true);
    expect(kinds((await attack('huge-headers', openTarget)).outcomes)).toEqual(['accepted']);
  });
});

describe('slow attacks', () => {
  it('slow-body: cut (408 or a close) by the request timeout, well before the hold bound; held by the unprotected server', async () => {
    const { outcomes } = await attack('slow-body', agentTarget, { intervalMs: 100, holdMs: 5000 }, 2);
    for (const o of outcomes) {
      expect(o.kind === 'cut' || (o.kind === 'refused' && o.status === 408)).toBe(true);
      expect(o.latencyMs).toBeLessThan(4000);
    }
    expect(kinds((await attack('slow-body', openTarget, { intervalMs: 100, holdMs: 1200 }, 2)).outcomes)).toEqual([
      'held',
    ]);
  });

  it('slowloris: cut by the headers timeout; held by the unprotected server', async () => {
    const { outcomes } = await attack('slowloris', agentTarget, { intervalMs: 50, holdMs: 5000 }, 2);
    for (const o of outcomes) {
      expect(o.kind === 'cut' || (o.kind === 'refused' && o.status === 408)).toBe(true);
      expect(o.latencyMs).toBeLessThan(4000);
    }
    expect(kinds((await attack('slowloris', openTarget, { intervalMs: 50, holdMs: 1200 }, 2)).outcomes)).toEqual([
      'held',
    ]);
  });
});

describe('connection attacks', () => {
  it('idle-connections: cut by the agent; held by the unprotected server', async () => {
    const { outcomes } = await attack('idle-connections', agentTarget, { holdMs: 5000 });
    for (const o of outcomes) {
      expect(o.kind).toBe('cut');
      expect(o.latencyMs).toBeLessThan(4000);
    }
    expect(kinds((await attack('idle-connections', openTarget, { holdMs: 1000 })).outcomes)).toEqual(['held']);
  });

  it('idle-connections: a connection closed right after connect (a connection bound) is a cut at once', async () => {
    const shedding = createNetServer((s) => s.destroy());
    shedding.listen(0, '127.0.0.1');
    await once(shedding, 'listening');
    try {
      const target = attackTarget({ baseUrl: `http://127.0.0.1:${(shedding.address() as { port: number }).port}` });
      const { outcomes } = await attack('idle-connections', target, { holdMs: 3000 });
      for (const o of outcomes) {
        expect(o.kind).toBe('cut');
        expect(o.latencyMs).toBeLessThan(1000);
      }
    } finally {
      await new Promise((r) => shedding.close(r));
    }
  });
});

describe('stream attacks', () => {
  it('unread-streams: beyond the per-task bound refused with -32029, the rest held; all held by the unprotected server', async () => {
    const { outcomes } = await attack('unread-streams', agentTarget, { holdMs: 1000 }, 4);
    const refused = outcomes.filter((o) => o.kind === 'refused' || o.kind === 'rate-limited');
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const o of refused) expect(o.code).toBe(-32029);
    expect(outcomes.every((o) => o.kind !== 'server-error' && o.kind !== 'accepted')).toBe(true);
    expect(kinds((await attack('unread-streams', openTarget, { holdMs: 1000 }, 4)).outcomes)).toEqual(['held']);
  });

  it('unread-replay: beyond the per-task bound closed with 1013, the rest held; all held by the unprotected server', async () => {
    const { outcomes } = await attack('unread-replay', agentTarget, { holdMs: 1000 }, 4);
    const refused = outcomes.filter((o) => o.kind === 'refused');
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const o of refused) expect(o.code).toBe(1013);
    expect(kinds((await attack('unread-replay', openTarget, { holdMs: 1000 }, 4)).outcomes)).toEqual(['held']);
  });

  it('an unread stream or replay socket the server cuts later is a cut, seen without reading (the probe write fails)', async () => {
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
      socket.write(
        'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: x\r\n\r\n',
      );
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
  });

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

  it('unread-streams: an unbounded server that closes on bytes after a `Connection: close` request (h11, uvicorn) holds every stream, not cut by the probe', async () => {
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
  });

  it('unread-streams: a server that refuses every subscription (a2a-sdk 0.3: -32001 in the first frame) has nothing to hold: nothing starts, and the notes say why', async () => {
    const { target, close } = await streamServer((socket) => {
      socket.end(
        SSE_HEAD +
          chunk('data: {"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found"}}\n\n') +
          '0\r\n\r\n',
      );
    });
    try {
      const outcomes: AttackOutcome[] = [];
      const report = await ATTACKS['unread-streams'].run(
        target,
        { holdMs: 1_000 },
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
  });
});

describe('wire generations and bindings', () => {
  it('answers and malformed bodies reach the agent in each generation and binding and get the refusal of their kind', async () => {
    for (const generation of ['1.0', '0.3'] as const) {
      for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
        const base = attackTarget({ baseUrl: agent.url, generation, binding });
        const target = {
          ...base,
          openPrompt: scriptedPromptOpener(base, { responseSchema: PATTERN_SCHEMA, validPayload: { code: 'aaa' } }),
        };
        const unknown = await attack('unknown-prompt', target, {}, 1);
        // A body the agent could not read as an answer would get -32602/400, not "already answered or unknown".
        expect(unknown.outcomes[0], `${generation} ${binding}`).toMatchObject({ kind: 'refused', status: 409 });
        expect([-32010, 409], `${generation} ${binding}`).toContain(unknown.outcomes[0].code);
        const pattern = await attack('pattern-backtracking', target, {}, 1);
        expect([-32011, 422], `${generation} ${binding}`).toContain(pattern.outcomes[0].code);
        const malformed = await attack('malformed-json', target, {}, 2);
        for (const o of malformed.outcomes) expect([-32700, 400], `${generation} ${binding}`).toContain(o.code);
      }
    }
  });
});

describe('reply framing', () => {
  it('big chunked and sized replies settle at their end (not at the hold bound), and a 100 Continue is skipped', async () => {
    const server = createNetServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (first: Buffer) => {
        const kind = /x-reply: (\w+)/.exec(first.toString('latin1'))?.[1];
        if (kind === 'chunked') {
          socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
          for (let i = 0; i < 64; i++) socket.write(`8000\r\n${'c'.repeat(0x8000)}\r\n`);
          socket.write('0\r\n\r\n');
        } else if (kind === 'sized') {
          socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${3 * 1024 * 1024}\r\n\r\n`);
          socket.write(Buffer.alloc(3 * 1024 * 1024, 0x7b));
        } else socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\n\r\n');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const target = attackTarget({ baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
      for (const [kind, expected] of [
        ['chunked', 'accepted'],
        ['sized', 'accepted'],
        ['continue', 'refused'],
      ] as const) {
        const end = await attackExchange(
          target,
          new AbortController().signal,
          { holdMs: 5000, what: 'request' },
          async (io) => {
            await io.write(`GET / HTTP/1.1\r\nhost: x\r\nx-reply: ${kind}\r\n\r\n`);
          },
        );
        expect(end, kind).toMatchObject({ kind: expected });
        expect((end as AttackOutcome).latencyMs, kind).toBeLessThan(4000);
      }
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
