// Issue 9 item 8: hostile request targets, upgrade targets and Host headers, sent raw to a spawned
// agent. Every one must get a 4xx (never a crash, never a 5xx), and after each the agent must still
// answer a health probe fast. One `//[` upgrade used to kill the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAgent, type AgentChild } from './support/agentFixture.ts';
import { bestProbe, rawExchange, rawSocket } from './support/rawHttp.ts';

let agent: AgentChild;
let port: number;
let exitCode: number | null | 'running' = 'running';
beforeAll(async () => {
  agent = await spawnAgent([]);
  port = Number(new URL(agent.url).port);
  void agent.exited.then((code) => (exitCode = code));
});
afterAll(async () => {
  agent.child.kill('SIGKILL');
  await agent.exited;
});

const UPGRADE =
  'Connection: Upgrade\r\nUpgrade: websocket\r\n' +
  'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

/** Targets no URL parser should be trusted with. */
const HOSTILE_TARGETS = [
  '//[',
  'http://[::1/events',
  'http://[::1]:1/events',
  '//[/events',
  '/events?task=%',
  '/events?task=%E0%A4%A',
  '/events?task=x&since=99999999999999999999999',
  '/events?task=x&since=-1',
  '/events?task=x&version=9',
  '/%E0%A4%A',
  '/tasks/%E0%A4%A',
  '/tasks/%',
  '/tasks/%00:cancel',
  '/tasks?pageSize=%',
  '/tasks?pageSize=abc&historyLength=-1',
  '/tasks?pageToken=99999999999999999999999',
  `/${'a'.repeat(100_000)}`,
  `/events?${'a=1&'.repeat(3_000)}`,
  `/tasks?${'pageSize=1&'.repeat(1_000)}`,
  '*',
  'http://user:pass@[',
  '/\u00ff\u00fe',
  '/..%2f..%2fetc/passwd',
  'events',
];

const HOSTILE_HOSTS = ['[', '[::1', 'a b', 'x'.repeat(20_000), '%', 'http://evil/', ''];
/** A hostile host as a test name: quoted, or its start and length when it is long. */
const hostLabel = (h: string) => (h.length > 30 ? `${h.slice(0, 10)}… (${h.length} chars)` : JSON.stringify(h));

const probeTimes: number[] = [];

async function expectAlive(what: string): Promise<void> {
  expect(exitCode, `agent exited after ${what}`).toBe('running');
  const { best, all } = await bestProbe(agent.url);
  probeTimes.push(...all);
  expect(best, `health probe after ${what}: ${all.map((t) => t.toFixed(1)).join(', ')} ms`).toBeLessThan(100);
}

function requestText(method: string, target: string, extra = '', host = '127.0.0.1'): string {
  const body = method === 'POST' ? '{}' : '';
  const length = method === 'POST' ? `Content-Length: ${body.length}\r\nContent-Type: application/json\r\n` : '';
  return `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${length}${extra}Connection: close\r\n\r\n${body}`;
}

describe('hostile request targets (issue 9 item 8)', () => {
  it.each(HOSTILE_TARGETS.map((t) => [t.length > 60 ? `${t.slice(0, 40)}… (${t.length} chars)` : t, t]))(
    'upgrade to %s: a 4xx (or a WebSocket closed with 44xx), and the agent lives',
    async (_label, target) => {
      // Ends at a plain reply, or at the first 4 bytes of a close frame after a 101.
      const done = (data: string) =>
        data.startsWith('HTTP/1.1 101')
          ? data.length >= data.indexOf('\r\n\r\n') + 8 && data.includes('\r\n\r\n')
          : data.includes('\r\n\r\n');
      const reply = await rawExchange(port, [requestText('GET', target, UPGRADE)], { boundMs: 5_000, stopWhen: done });
      if (reply.status === 101) {
        // A parseable /events target: the replay plane refuses it in its own terms (README: 4400/4404).
        const close = Buffer.from(reply.data.slice(reply.data.indexOf('\r\n\r\n') + 4), 'latin1');
        expect(close[0], 'a close frame').toBe(0x88);
        expect([4400, 4404]).toContain(close.readUInt16BE(2));
      } else {
        expect(reply.status, `reply: ${reply.statusLine}`).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
      }
      await expectAlive(`upgrade ${target.slice(0, 40)}`);
    },
  );

  it.each(HOSTILE_TARGETS.map((t) => [t.length > 60 ? `${t.slice(0, 40)}… (${t.length} chars)` : t, t]))(
    'GET and POST %s: never a 5xx, and the agent lives',
    async (_label, target) => {
      for (const method of ['GET', 'POST']) {
        const reply = await rawExchange(port, [requestText(method, target)], { stopAtReply: true });
        expect(reply.status, `${method} reply: ${reply.statusLine}`).toBeDefined();
        expect(reply.status, `${method} reply: ${reply.statusLine}`).toBeLessThan(500);
      }
      await expectAlive(`request ${target.slice(0, 40)}`);
    },
  );

  it('refuses the broken targets with a 4xx, as upgrades and as plain requests', async () => {
    for (const target of ['//[', 'http://[::1/events', '/tasks/%E0%A4%A', '/tasks/%']) {
      for (const extra of ['', UPGRADE]) {
        const reply = await rawExchange(port, [requestText('GET', target, extra)], { stopAtReply: true });
        expect(reply.status, `${target}: ${reply.statusLine}`).toBeGreaterThanOrEqual(400);
        expect(reply.status, `${target}: ${reply.statusLine}`).toBeLessThan(500);
      }
    }
    await expectAlive('broken targets');
  });

  it.each(HOSTILE_HOSTS.map((h) => [hostLabel(h), h]))(
    'Host %s: the card never names a broken URL, upgrades get a 4xx, the agent lives',
    async (_label, host) => {
      // Both cards: the 1.0 one (URLs only in supportedInterfaces) and the 0.3 one (also `url`).
      for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
        const card = await rawExchange(port, [requestText('GET', path, '', host)], { boundMs: 5_000 });
        expect(card.status, card.statusLine).toBeLessThan(500);
        if (card.status === 200) {
          const parsed = JSON.parse(card.data.slice(card.data.indexOf('\r\n\r\n') + 4)) as {
            url?: string;
            supportedInterfaces: Array<{ url: string }>;
          };
          const urls = [
            ...parsed.supportedInterfaces.map((i) => i.url),
            ...(parsed.url === undefined ? [] : [parsed.url]),
          ];
          expect(urls.length, path).toBeGreaterThan(0);
          for (const url of urls) expect(() => new URL(url)).not.toThrow();
        }
      }
      const upgrade = await rawExchange(port, [requestText('GET', '/events?task=nope', UPGRADE, host)], {
        stopAtReply: true,
      });
      expect(upgrade.status === undefined || upgrade.status < 500, upgrade.statusLine).toBe(true);
      await expectAlive(`Host ${host.slice(0, 20)}`);
    },
  );

  it(
    'sockets reset (RST) mid-upgrade, right after a refused upgrade, ' + 'and mid-replay do not kill the agent',
    async () => {
      const targets = ['/events?task=nope', '/events?task=x&version=9', '/nope', '//[', '/events'];
      for (const target of targets) {
        for (const cut of ['partial', 'whole']) {
          const socket = await rawSocket(port);
          socket.on('error', () => {});
          const text = requestText('GET', target, UPGRADE);
          socket.write(cut === 'partial' ? text.slice(0, text.length - 10) : text);
          await new Promise((r) => setImmediate(r));
          socket.resetAndDestroy();
        }
      }
      await expectAlive('reset upgrades');
    },
  );

  it('300 seeded random targets (plain and upgrade): never a 5xx, never a crash', async () => {
    // A fixed-seed LCG, so a failure names a target that can be replayed.
    let seed = 0x9e3779b9;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
    const alphabet = [
      '/',
      '//',
      '%',
      '%E0',
      '%A4',
      '%ZZ',
      '[',
      ']',
      ':',
      '@',
      '?',
      '&',
      '=',
      '#',
      '.',
      '..',
      'events',
      'tasks',
      'task=',
      'since=',
      'http:',
      '\\',
      'ÿ',
      ':cancel',
      '~',
    ];
    const seen: string[] = [];
    for (let i = 0; i < 150; i++) {
      const parts = Array.from({ length: 1 + (next() % 12) }, () => alphabet[next() % alphabet.length]);
      const target = (next() % 4 === 0 ? '' : '/') + parts.join('');
      for (const extra of ['', UPGRADE]) {
        const reply = await rawExchange(port, [requestText('GET', target, extra)], {
          stopAtReply: true,
          boundMs: 2_000,
        });
        seen.push(`${reply.status ?? 'none'}`);
        expect(
          reply.status === undefined || reply.status < 500,
          `${extra ? 'upgrade' : 'GET'} ${JSON.stringify(target)}: ${reply.statusLine}`,
        ).toBe(true);
      }
    }
    expect(seen.filter((s) => s !== 'none').length).toBeGreaterThan(250);
    await expectAlive('random targets');
  });

  it('garbage WebSocket frames after a refused or accepted replay upgrade do not kill the agent', async () => {
    const unmasked = Buffer.from([0x81, 0x05, ...Buffer.from('hello')]);
    const reserved = Buffer.from([0xf1, 0x80, 0, 0, 0, 0]);
    const huge = Buffer.from([0x82, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4]);
    for (const target of ['/events?task=nope', '/events', '/events?task=x&since=-1']) {
      for (const frame of [unmasked, reserved, huge]) {
        const reply = await rawExchange(port, [requestText('GET', target, UPGRADE), frame], {
          gapMs: 20,
          boundMs: 1_000,
        });
        expect(reply.status).toBe(101);
      }
    }
    await expectAlive('garbage frames');
  });

  it('(last) none of it reached the last-resort guard: every refusal above was a deliberate one', () => {
    expect(agent.stderr()).not.toContain('unexpected error');
  });

  afterAll(() => {
    const sorted = [...probeTimes].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]?.toFixed(1);
    process.stderr.write(
      `agentHostileTargets: ${sorted.length} health probes, p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms\n`,
    );
  });
});
