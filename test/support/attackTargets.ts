// What the tests of the named attacks (test/attack.catalog*.test.ts) share: the in-process reference
// agent with small timeouts and stream bounds, a deliberately unprotected tiny server (no timeouts, no
// size limits, no stream bounds), a target for each, and a run of one attack that collects its outcomes.
import { once } from 'node:events';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { expect } from 'vitest';
import { startAgent, type RunningAgent } from '../../rig/agent/startAgent.ts';
import { ATTACKS, type AttackName } from '../../rig/attack/attackRegistry.ts';
import { attackTarget, scriptedPromptOpener } from '../../rig/attack/attackTarget.ts';
import type { AttackOutcome, AttackReport, AttackTarget, LivePrompt } from '../../rig/attack/attackTypes.ts';
import { tempDbPath } from './inProcessAgent.ts';

export const PATTERN_SCHEMA = {
  type: 'object',
  properties: { code: { type: 'string', pattern: '^(a+)+$' } },
  required: ['code'],
};

/** The upgrade answer of a server that accepts any WebSocket and then never sends a frame. */
export const SWITCHING_PROTOCOLS =
  'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: x\r\n\r\n';

/**
 * No timeouts, no header or body limit, every body read whole and answered 200 with a JSON-RPC result;
 * streams and upgrades kept open forever.
 */
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
    socket.write(SWITCHING_PROTOCOLS);
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

export interface AttackTargets {
  agent: RunningAgent;
  /** The agent, its prompts opened by a script whose response_schema has a backtracking `pattern`. */
  agentTarget: AttackTarget;
  /** The unprotected server, its "prompts" made up (it keeps none). */
  openTarget: AttackTarget;
  close: () => Promise<void>;
}

/** Starts the agent and the unprotected server, each with its target; `close` stops both. */
export async function startAttackTargets(): Promise<AttackTargets> {
  const db = tempDbPath();
  const agent = await startAgent({
    dbPath: db.path,
    headersTimeoutMs: 500,
    requestTimeoutMs: 1000,
    limits: { maxStreamsPerTask: 2 },
  });
  const base = attackTarget({ baseUrl: agent.url });
  const agentTarget = {
    ...base,
    openPrompt: scriptedPromptOpener(base, { responseSchema: PATTERN_SCHEMA, validPayload: { code: 'aaa' } }),
  };
  const open = await unprotectedServer();
  let n = 0;
  const openTarget = {
    ...attackTarget({ baseUrl: open.url }),
    openPrompt: async (): Promise<LivePrompt> => ({
      taskId: `t${++n}`,
      promptId: `p${n}`,
      responseSchema: PATTERN_SCHEMA,
      validPayload: { code: 'aaa' },
    }),
  };
  return {
    agent,
    agentTarget,
    openTarget,
    close: async () => {
      await agent.close();
      db.cleanup();
      await open.close();
    },
  };
}

/** Runs attack `name` until `count` requests settled; every one must settle, with one outcome each. */
export async function attack(
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

export const kinds = (outcomes: AttackOutcome[]) => [...new Set(outcomes.map((o) => o.kind))];
