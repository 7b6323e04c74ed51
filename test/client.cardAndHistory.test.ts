// Two small pure parts of the client: reading agent cards of either generation (and where to look
// for them), and the event history's bookkeeping and memory bound.
import { describe, expect, it } from 'vitest';
import type { StreamResponse } from '../rig/protocol/a2aTypes.ts';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { agentCardUrls, describeAgent } from '../rig/client/agentDiscovery.ts';
import { cardInterfaces } from '../rig/client/cardInterfaces.ts';
import { EventHistory } from '../rig/client/eventHistory.ts';

const BASE = 'http://127.0.0.1:9/';
const CARD_URL = `${BASE}.well-known/agent-card.json`;
const common = {
  name: 'a',
  description: 'd',
  version: '1',
  capabilities: {},
  defaultInputModes: [],
  defaultOutputModes: [],
  skills: [],
};

describe('describeAgent', () => {
  it('a v0.3-only card (url + protocolVersion 0.3) is spoken in 0.3 at its url', () => {
    const agent = describeAgent(BASE, CARD_URL, {
      ...common,
      url: 'http://127.0.0.1:9/rpc',
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
    });
    expect(agent).toMatchObject({
      generation: '0.3',
      rpcUrl: 'http://127.0.0.1:9/rpc',
      jsonRpcInterfaces: { '0.3': 'http://127.0.0.1:9/rpc' },
      problems: [],
    });
  });

  it('a v0.3 card whose preferred transport is not JSON-RPC uses its JSON-RPC additional interface', () => {
    const agent = describeAgent(BASE, CARD_URL, {
      ...common,
      url: 'http://127.0.0.1:9/grpc',
      protocolVersion: '0.3.0',
      preferredTransport: 'GRPC',
      additionalInterfaces: [{ url: '/jsonrpc', transport: 'JSONRPC' }],
    });
    expect(agent.rpcUrl).toBe('http://127.0.0.1:9/jsonrpc');
  });

  it('a 1.0 interface wins; forcing 0.3 without a 0.3 interface is allowed but reported', () => {
    const card = {
      ...common,
      supportedInterfaces: [{ url: 'http://127.0.0.1:9/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    };
    expect(describeAgent(BASE, CARD_URL, card)).toMatchObject({ generation: '1.0', rpcUrl: 'http://127.0.0.1:9/v1' });
    const forced = describeAgent(BASE, CARD_URL, card, '0.3');
    expect(forced).toMatchObject({ generation: '0.3', generationSource: 'override', rpcUrl: 'http://127.0.0.1:9/v1' });
    expect(forced.problems).toEqual([
      'the card offers no interface for A2A 0.3 the rig speaks; calling JSON-RPC at http://127.0.0.1:9/v1',
    ]);
  });

  it('reports a hitl-prompt/v1 declaration that breaks the spec, and missing card fields', () => {
    const agent = describeAgent(BASE, CARD_URL, {
      url: BASE,
      protocolVersion: '0.3.0',
      capabilities: { extensions: [{ uri: HITL_PROMPT_URI, required: true, params: { x: 1 } }] },
    });
    expect(agent.hitl).toEqual({ declared: true, required: true, params: { x: 1 } });
    expect(agent.problems).toEqual([
      'the card lacks "name"',
      'the card lacks "description"',
      'the card lacks "version"',
      'the card lacks "defaultInputModes"',
      'the card lacks "defaultOutputModes"',
      'the card lacks "skills"',
      'hitl-prompt/v1 is declared with required: true; the spec says it MUST be false',
      'hitl-prompt/v1 is declared with non-empty params; v1 defines none',
    ]);
    expect(describeAgent(BASE, CARD_URL, { ...common, url: BASE }).hitl.declared).toBe(false);
  });

  it('looks for the card under the URL path, then at the root, or takes a .json URL as the card', () => {
    expect(agentCardUrls('http://h:1')).toEqual(['http://h:1/.well-known/agent-card.json']);
    expect(agentCardUrls('http://h:1/agents/a')).toEqual([
      'http://h:1/agents/a/.well-known/agent-card.json',
      'http://h:1/.well-known/agent-card.json',
    ]);
    expect(agentCardUrls('http://h:1/card.json')).toEqual(['http://h:1/card.json']);
  });
});

describe('EventHistory', () => {
  const event = (taskId: string): StreamResponse => ({
    statusUpdate: { taskId, contextId: 'c', status: { state: 'TASK_STATE_WORKING', timestamp: '' } },
  });

  it('numbers connections per kind, filters entries, and keeps the first close reason', () => {
    const history = new EventHistory();
    const sse = history.openConnection('sse', 't1');
    const replay = history.openConnection('replay', 't2');
    expect([sse, replay, history.openConnection('sse')]).toEqual(['sse-1', 'replay-1', 'sse-2']);
    history.record({
      connectionId: sse,
      kind: 'sse',
      taskId: 't1',
      seq: 1,
      eventId: 'e1',
      receivedAt: performance.now(),
      event: event('t1'),
    });
    history.record({
      connectionId: replay,
      kind: 'replay',
      taskId: 't2',
      seq: 1,
      eventId: 'e2',
      receivedAt: performance.now(),
      event: event('t2'),
    });
    expect(history.entries({ taskId: 't2' }).map((e) => [e.index, e.connectionId])).toEqual([[1, 'replay-1']]);
    expect(history.entries({ kind: 'sse' })).toHaveLength(1);
    history.closeConnection(sse, 'ended');
    history.closeConnection(sse, 'later');
    expect(history.connection(sse)).toMatchObject({ closeReason: 'ended', events: 1, taskId: 't1' });
    expect(history.connections({ kind: 'sse' })).toHaveLength(2);
    expect(Object.isFrozen(history.entries()[0])).toBe(true);
  });

  it('stops keeping entries at its bound and counts what it dropped', () => {
    const history = new EventHistory(2);
    const id = history.openConnection('sse');
    for (let i = 1; i <= 5; i++)
      history.record({
        connectionId: id,
        kind: 'sse',
        taskId: 't',
        seq: i,
        eventId: undefined,
        receivedAt: i,
        event: event('t'),
      });
    expect(history.size).toBe(2);
    expect(history.dropped).toBe(3);
    expect(history.connection(id)?.events).toBe(5);
    history.clear();
    expect([history.size, history.dropped, history.connections().length]).toEqual([0, 0, 0]);
  });
});

describe('choosing the binding', () => {
  const both = {
    ...common,
    supportedInterfaces: [
      { url: `${BASE}rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: `${BASE}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
  };

  it("takes the card's first interface the rig speaks, or the one asked for", () => {
    expect(describeAgent(BASE, CARD_URL, both)).toMatchObject({ binding: 'HTTP+JSON', rpcUrl: `${BASE}rest` });
    expect(describeAgent(BASE, CARD_URL, both, undefined, 'JSONRPC')).toMatchObject({
      binding: 'JSONRPC',
      rpcUrl: `${BASE}rpc`,
    });
  });

  it('refuses a binding the card does not offer, naming what it offers', () => {
    const refused = () => describeAgent(BASE, CARD_URL, both, undefined, 'GRPC');
    expect(refused).toThrow(/--binding gRPC: the card offers no gRPC interface the rig speaks/);
    expect(refused).toThrow(/it offers: HTTP\+JSON 1\.0 at http:\/\/127\.0\.0\.1:9\/rest, JSON-RPC 1\.0/);
  });

  it('reads 0.3 cards (url, preferredTransport, additionalInterfaces) and transport-named entries', () => {
    const legacy = { url: `${BASE}g`, protocolVersion: '0.3.0', preferredTransport: 'GRPC' };
    expect(
      cardInterfaces({ ...legacy, additionalInterfaces: [{ url: '/j', transport: 'JSONRPC' }] }, CARD_URL),
    ).toEqual([
      { binding: 'GRPC', generation: '0.3', url: `${BASE}g` },
      { binding: 'JSONRPC', generation: '0.3', url: `${BASE}j` },
    ]);
    const hybrid = { protocolVersion: '0.3.0', supportedInterfaces: [{ url: `${BASE}v1`, transport: 'HTTP+JSON' }] };
    expect(cardInterfaces(hybrid, CARD_URL)).toEqual([{ binding: 'HTTP+JSON', generation: '0.3', url: `${BASE}v1` }]);
  });
});
