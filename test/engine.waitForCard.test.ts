// The wait for a restarted agent (agentRestart.ts waitForCard): its card is looked for where
// discovery finds it, so an agent mounted below a path (/agents/{id}) is seen answering again.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForCard } from '../rig/engine/environment/agentRestart.ts';

let server: Server;
let base = '';
const asked: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const ours = req.url === '/agents/a1/.well-known/agent-card.json';
    res.writeHead(ours ? 200 : 404, { 'content-type': 'application/json' });
    res.end(ours ? '{"name":"prefixed"}' : '{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('waitForCard', () => {
  it('finds the card of an agent mounted below a path, where discovery finds it', { timeout: 10_000 }, async () => {
    await waitForCard(`${base}/agents/a1`);
    expect(asked).toEqual(['/agents/a1/.well-known/agent-card.json']);
  });
});
