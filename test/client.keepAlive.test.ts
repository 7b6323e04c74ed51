// The client's JSON-RPC pool keeps connections alive: sequential calls share one socket, concurrent
// ones stay within the pool size, and the A2A headers of the chosen generation go out on each call.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { describeAgent } from '../rig/client/agentDiscovery.ts';

let server: Server;
let base: string;
let connections = 0;
const sockets = new Set<Socket>();
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push(req.headers);
      const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: number };
      const task = { id: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', timestamp: '' } };
      // A short delay so concurrent calls overlap and need their own connections.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'a2a-extensions': HITL_PROMPT_URI });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: task }));
      }, 5);
    });
  });
  server.on('connection', (s) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server.close();
  for (const s of sockets) s.destroy();
  await once(server, 'close').catch(() => {});
});

function client(generation: '0.3' | '1.0', connectionsInPool: number): A2AClient {
  const card = {
    url: base,
    protocolVersion: '0.3.0',
    supportedInterfaces: [{ url: base, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  };
  return A2AClient.forAgent(describeAgent(base, `${base}.well-known/agent-card.json`, card, generation), {
    connections: connectionsInPool,
  });
}

it('reuses connections for sequential calls and caps concurrent ones at the pool size', async () => {
  const c = client('1.0', 4);
  try {
    const before = connections;
    for (let i = 0; i < 100; i++) expect((await c.getTask('t')).ok).toBe(true);
    // undici's pool may hand the next call to a second client while the first finishes its
    // bookkeeping; after that the two are reused: 100 calls, at most 2 connections.
    expect(connections - before).toBeLessThanOrEqual(2);
    const results = await Promise.all(Array.from({ length: 16 }, () => c.getTask('t')));
    expect(results.every((r) => r.ok && r.meta.echoedExtensions[0] === HITL_PROMPT_URI)).toBe(true);
    expect(connections - before).toBeLessThanOrEqual(4);
  } finally {
    await c.close();
  }
});

it('sends A2A-Version and A2A-Extensions for 1.0, only X-A2A-Extensions for 0.3', async () => {
  for (const generation of ['1.0', '0.3'] as const) {
    const c = client(generation, 1);
    seen.length = 0;
    await c.getTask('t');
    await c.getTask('t', { extensions: [] });
    await c.close();
    const [activated, plain] = seen;
    if (generation === '1.0') {
      expect(activated).toMatchObject({ 'a2a-version': '1.0', 'a2a-extensions': HITL_PROMPT_URI });
      expect(activated['x-a2a-extensions']).toBeUndefined();
    } else {
      expect(activated).toMatchObject({ 'x-a2a-extensions': HITL_PROMPT_URI });
      expect(activated['a2a-version']).toBeUndefined();
      expect(activated['a2a-extensions']).toBeUndefined();
    }
    expect(plain['a2a-extensions'] ?? plain['x-a2a-extensions']).toBeUndefined();
  }
});
