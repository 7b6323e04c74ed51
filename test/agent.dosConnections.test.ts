// Issue 14 item 4: the connection bounds. Sockets beyond the per-client or the total bound are
// closed on accept and counted by reason; the open-connections gauge reads what is held; the CLI
// flags reach the bounds and refuse bad values in one line. Sockets come from distinct loopback
// sources (127.0.0.x, Linux routes all of 127/8 to lo) through `localAddress`.
import { spawnSync } from 'node:child_process';
import { get } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_PER_CLIENT,
  clientKey,
} from '../rig/agent/connectionLimits.ts';
import { startAgent } from '../rig/agent/startAgent.ts';
import { ownedAgents, spawnAgent, tempDbPath } from './support/agentFixture.ts';
import { openFrom } from './support/dosChecks.ts';

const held: Socket[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of held.splice(0)) s.destroy();
  for (const close of closers.splice(0)) await close();
});
const owned = ownedAgents();

async function outcomeFrom(port: number, address: string) {
  const { outcome, socket } = await openFrom(port, address);
  held.push(socket);
  return outcome;
}

/** GET /metrics on a connection of its own from `localAddress`. */
function scrape(url: string, localAddress: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(`${url}/metrics`, { agent: false, localAddress, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

describe('connection bounds', () => {
  it(
    "defaults leave room for the rig's own load from one address (duplicate-flood full: " +
      '8 × 64 pooled connections)',
    () => {
      expect(DEFAULT_MAX_CONNECTIONS_PER_CLIENT).toBeGreaterThan(8 * 64 + 36);
      expect(DEFAULT_MAX_CONNECTIONS).toBeGreaterThanOrEqual(4 * DEFAULT_MAX_CONNECTIONS_PER_CLIENT);
      expect(clientKey('::ffff:127.0.0.2')).toBe('127.0.0.2');
      expect(clientKey('::1')).toBe('::1');
    },
  );

  it('sheds per client and in total, counts each by reason, and the gauge reads the open ones', async () => {
    const db = tempDbPath();
    const agent = await startAgent({ dbPath: db.path, maxConnectionsPerClient: 2, maxConnections: 5 });
    closers.push(async () => {
      await agent.close();
      db.cleanup();
    });
    const port = agent.port;
    expect(await outcomeFrom(port, '127.0.0.3')).toBe('admitted');
    expect(await outcomeFrom(port, '127.0.0.3')).toBe('admitted');
    expect(await outcomeFrom(port, '127.0.0.3')).toBe('shed'); // per client
    expect(await outcomeFrom(port, '127.0.0.4')).toBe('admitted');
    expect(await outcomeFrom(port, '127.0.0.5')).toBe('admitted'); // 4 open: one slot left, for the scrape
    const metrics = await scrape(agent.url, '127.0.0.6');
    expect(metrics).toMatch(/^a2a_agent_open_connections 5$/m);
    expect(metrics).toMatch(/^a2a_agent_connections_shed_total\{reason="per-client"\} 1$/m);
    expect(metrics).toMatch(/^a2a_agent_connections_shed_total\{reason="total"\} 0$/m);
    // The scrape's own socket may still be open on the agent's side: hold it off with one more.
    // Then every slot is taken, and a fresh address (0 of its own open) meets the total bound.
    let outcome = await outcomeFrom(port, '127.0.0.7');
    for (let i = 8; outcome === 'admitted' && i < 12; i++) outcome = await outcomeFrom(port, `127.0.0.${i}`);
    expect(outcome).toBe('shed');
    for (const s of held.splice(0)) s.destroy();
    // Scrape again once a slot is free (the agent sees the closes asynchronously: bounded retries).
    let after = '';
    for (let i = 0; i < 50 && after === ''; i++) after = await scrape(agent.url, '127.0.0.20').catch(() => '');
    // At least the one above; a retry the agent shed before it saw the closes counts too.
    expect(
      Number(/^a2a_agent_connections_shed_total\{reason="total"\} (\d+)$/m.exec(after)?.[1]),
    ).toBeGreaterThanOrEqual(1);
  });

  it('the CLI flags set the bounds (a child agent with --max-connections-per-client 2)', async () => {
    const child = await spawnAgent(['--max-connections-per-client', '2', '--max-connections', '10']);
    owned.children.push(child);
    const port = Number(new URL(child.url).port);
    expect(await outcomeFrom(port, '127.0.0.3')).toBe('admitted');
    expect(await outcomeFrom(port, '127.0.0.3')).toBe('admitted');
    expect(await outcomeFrom(port, '127.0.0.3')).toBe('shed');
    expect(await outcomeFrom(port, '127.0.0.4')).toBe('admitted');
  });

  it.each([
    [['--max-connections', '0'], '--max-connections must be an integer in 1..1000000, got "0"'],
    [
      ['--max-connections-per-client', '1.5'],
      '--max-connections-per-client must be an integer in 1..1000000, got "1.5"',
    ],
    [['--rate-limit', '-1'], '--rate-limit must be a number of requests per second in (0, 1000000], got "-1"'],
    [['--rate-limit-burst', '4'], '--rate-limit-burst needs --rate-limit'],
  ])('refuses %j in one line, exit 2', (args, message) => {
    const run = spawnSync(
      process.execPath,
      [new URL('../bin/a2a-rig.js', import.meta.url).pathname, 'agent', ...args],
      { encoding: 'utf8', timeout: 15_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(`a2a-rig: ${message}`);
  });
});
