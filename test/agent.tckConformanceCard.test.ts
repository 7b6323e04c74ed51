// Issue 11, agent card: the card a strict A2A 1.0 parser accepts (only AgentCard's fields; the 1.0
// TCK validates it against a schema that forbids unknown top-level fields and fetches it with no
// A2A-Version), the 0.3 card 0.3 clients find their endpoint in (`url`, `protocolVersion`,
// `preferredTransport`, `additionalInterfaces`), negotiation by A2A-Version (header or query),
// `--card-default 0.3`, and the caching headers (TCK test_agent_card_caching.py).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../rig/agent/startAgent.ts';
import { describeAgent } from '../rig/client/agentDiscovery.ts';
import { HITL, inProcessAgent, tempDbPath } from './support/inProcessAgent.ts';

/**
 * The fields of A2A 1.0's AgentCard, AgentInterface, AgentCapabilities and AgentSkill (a2a.proto, in
 * ProtoJSON names).
 */
const CARD_FIELDS = new Set([
  'name',
  'description',
  'supportedInterfaces',
  'provider',
  'version',
  'documentationUrl',
  'capabilities',
  'securitySchemes',
  'securityRequirements',
  'defaultInputModes',
  'defaultOutputModes',
  'skills',
  'signatures',
  'iconUrl',
]);
const INTERFACE_FIELDS = new Set(['url', 'protocolBinding', 'tenant', 'protocolVersion']);
const CAPABILITY_FIELDS = new Set(['streaming', 'pushNotifications', 'extensions', 'extendedAgentCard']);
const SKILL_FIELDS = new Set([
  'id',
  'name',
  'description',
  'tags',
  'examples',
  'inputModes',
  'outputModes',
  'securityRequirements',
]);

const unknown = (object: Record<string, unknown>, known: Set<string>) =>
  Object.keys(object).filter((k) => !known.has(k));

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const getCard = (path: string, headers: Record<string, string> = {}) => fetch(`${agent.url}${path}`, { headers });

describe('the 1.0 card (no A2A-Version, as the 1.0 TCK fetches it)', () => {
  it('has only A2A 1.0 fields, at the top level and inside', async () => {
    const res = await getCard('/.well-known/agent-card.json');
    expect(res.status).toBe(200);
    const card = await res.json();
    expect(unknown(card, CARD_FIELDS)).toEqual([]);
    for (const entry of card.supportedInterfaces) expect(unknown(entry, INTERFACE_FIELDS)).toEqual([]);
    expect(unknown(card.capabilities, CAPABILITY_FIELDS)).toEqual([]);
    for (const skill of card.skills) expect(unknown(skill, SKILL_FIELDS)).toEqual([]);
    for (const field of ['url', 'protocolVersion', 'preferredTransport', 'additionalInterfaces'])
      expect(card).not.toHaveProperty(field);
  });

  it('lists the 1.0 interfaces first, then the 0.3 ones, all at the agent', async () => {
    const card = await (await getCard('/.well-known/agent-card.json')).json();
    expect(card.supportedInterfaces).toEqual([
      { url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: agent.url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: agent.url, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ]);
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false });
    expect(card.capabilities.extensions[0]).toEqual({
      uri: HITL,
      description: expect.any(String),
      required: false,
      params: {},
    });
  });

  it('is what A2A-Version: 1.0 (header or query parameter) gets too', async () => {
    const plain = await (await getCard('/.well-known/agent-card.json')).text();
    expect(await (await getCard('/.well-known/agent-card.json', { 'A2A-Version': '1.0' })).text()).toBe(plain);
    expect(await (await getCard('/.well-known/agent-card.json?A2A-Version=1.0')).text()).toBe(plain);
  });
});

describe('the 0.3 card', () => {
  const legacyFields = (card: Record<string, unknown>) => ({
    url: card.url,
    protocolVersion: card.protocolVersion,
    preferredTransport: card.preferredTransport,
    additionalInterfaces: card.additionalInterfaces,
  });

  it.each([
    ['A2A-Version: 0.3 at agent-card.json', '/.well-known/agent-card.json', { 'A2A-Version': '0.3' }],
    ['?A2A-Version=0.3 at agent-card.json', '/.well-known/agent-card.json?A2A-Version=0.3', {}],
    ['the 0.2/0.3 location agent.json, no header', '/.well-known/agent.json', {}],
    ['agent.json even with A2A-Version: 1.0', '/.well-known/agent.json', { 'A2A-Version': '1.0' }],
  ])('%s: the 0.3 fields name the JSON-RPC endpoint and both 0.3 transports', async (_label, path, headers) => {
    const res = await getCard(path, headers as Record<string, string>);
    expect(res.status).toBe(200);
    const card = await res.json();
    expect(legacyFields(card)).toEqual({
      url: agent.url,
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: agent.url, transport: 'JSONRPC' },
        { url: agent.url, transport: 'HTTP+JSON' },
      ],
    });
    expect(card.capabilities.extensions[0]).toMatchObject({ uri: HITL, required: false });
  });
});

describe("the rig's own discovery reads both cards", () => {
  it.each([
    ['the 1.0 card', '/.well-known/agent-card.json'],
    ['the 0.3 card', '/.well-known/agent.json'],
  ])('%s: JSON-RPC endpoints of both generations, 1.0 chosen, 0.3 on request, no problems', async (_label, path) => {
    const card = await (await getCard(path)).json();
    const described = describeAgent(agent.url, `${agent.url}${path}`, card);
    expect(described.jsonRpcInterfaces).toEqual({ '1.0': `${agent.url}/`, '0.3': `${agent.url}/` });
    expect(described.generation).toBe('1.0');
    expect(describeAgent(agent.url, `${agent.url}${path}`, card, '0.3').rpcUrl).toBe(`${agent.url}/`);
    expect(described.problems).toEqual([]);
    expect(described.hitl).toMatchObject({ declared: true, required: false });
  });
});

describe('an A2A-Version the agent does not serve', () => {
  it.each([
    ['header', { 'A2A-Version': '99.0' }, ''],
    ['query parameter', {}, '?A2A-Version=0.5'],
  ])('as a %s: 400 VersionNotSupported (AIP-193 body with ErrorInfo)', async (_label, headers, query) => {
    const res = await getCard(`/.well-known/agent-card.json${query}`, headers as Record<string, string>);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: 400, status: 'UNIMPLEMENTED' });
    expect(body.error.details).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'VERSION_NOT_SUPPORTED',
      domain: 'a2a-protocol.org',
    });
  });
});

describe('caching (TCK test_agent_card_caching.py)', () => {
  it('Cache-Control with max-age, a strong ETag, Last-Modified, Vary: A2A-Version', async () => {
    const res = await getCard('/.well-known/agent-card.json');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(Number.isNaN(Date.parse(res.headers.get('last-modified') ?? ''))).toBe(false);
    expect(res.headers.get('vary')).toContain('A2A-Version');
  });

  it('the two cards have different ETags, each stable across requests', async () => {
    const etag = async (path: string, headers: Record<string, string> = {}) =>
      (await getCard(path, headers)).headers.get('etag');
    const v10 = await etag('/.well-known/agent-card.json');
    const v03 = await etag('/.well-known/agent-card.json', { 'A2A-Version': '0.3' });
    expect(v10).not.toBe(v03);
    expect(await etag('/.well-known/agent-card.json')).toBe(v10);
    expect(await etag('/.well-known/agent.json')).toBe(v03);
  });

  it('If-None-Match with the current ETag is 304 without a body; another ETag gets the card', async () => {
    const first = await getCard('/.well-known/agent-card.json');
    const etag = first.headers.get('etag')!;
    const again = await getCard('/.well-known/agent-card.json', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const other = await getCard('/.well-known/agent-card.json', { 'If-None-Match': '"something-else"' });
    expect(other.status).toBe(200);
    // The 1.0 ETag does not validate the 0.3 card.
    expect(
      (await getCard('/.well-known/agent-card.json', { 'If-None-Match': etag, 'A2A-Version': '0.3' })).status,
    ).toBe(200);
  });

  it('If-Modified-Since at or after Last-Modified is 304', async () => {
    const lastModified = (await getCard('/.well-known/agent-card.json')).headers.get('last-modified')!;
    expect((await getCard('/.well-known/agent-card.json', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect(
      (await getCard('/.well-known/agent-card.json', { 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' })).status,
    ).toBe(200);
  });
});

describe('--card-default 0.3 (0.3 clients that send no header and cannot be re-pointed)', () => {
  let legacy: RunningAgent;
  const db = tempDbPath();
  beforeAll(async () => {
    legacy = await startAgent({ dbPath: db.path, cardDefault: '0.3' });
  });
  afterAll(async () => {
    await legacy?.close();
    db.cleanup();
  });

  it('a header-less request gets the 0.3 card; A2A-Version: 1.0 still gets the strict one', async () => {
    const plain = await (await fetch(`${legacy.url}/.well-known/agent-card.json`)).json();
    expect(plain).toMatchObject({ url: legacy.url, protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' });
    const strict = await (
      await fetch(`${legacy.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })
    ).json();
    expect(unknown(strict, CARD_FIELDS)).toEqual([]);
  });

  it('the CLI takes --card-default 1.0|0.3 and refuses anything else in one line', () => {
    const run = spawnSync(process.execPath, ['bin/a2a-rig.js', 'agent', '--card-default', '2.0'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')[0]).toContain("'--card-default <version>' argument '2.0' is invalid");
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
