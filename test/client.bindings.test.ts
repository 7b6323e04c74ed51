// Which binding the client speaks (cardInterfaces.ts, agentDiscovery.ts) and how an HTTP+JSON reply
// reads back as the error the checks know (restErrors.ts, restTransport.ts).
import { describe, expect, it } from 'vitest';
import { describeAgent } from '../rig/client/agentDiscovery.ts';
import { cardInterfaces } from '../rig/client/cardInterfaces.ts';
import { restErrorOf } from '../rig/client/restErrors.ts';
import { restReply } from '../rig/client/restTransport.ts';
import { restRoute } from '../rig/client/restRoutes.ts';

const BASE = 'http://127.0.0.1:9';
const CARD_URL = `${BASE}/.well-known/agent-card.json`;
const card = (supportedInterfaces: unknown[]) => ({
  name: 'a',
  description: 'd',
  version: '1',
  capabilities: {},
  defaultInputModes: [],
  defaultOutputModes: [],
  skills: [],
  supportedInterfaces,
});

describe('choosing the binding', () => {
  const both = card([
    { url: `${BASE}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    { url: `${BASE}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ]);

  it("takes the card's first interface the rig speaks, or the one asked for", () => {
    expect(describeAgent(BASE, CARD_URL, both)).toMatchObject({ binding: 'HTTP+JSON', rpcUrl: `${BASE}/rest` });
    expect(describeAgent(BASE, CARD_URL, both, undefined, 'JSONRPC')).toMatchObject({
      binding: 'JSONRPC',
      rpcUrl: `${BASE}/rpc`,
    });
  });

  it('refuses a binding the card does not offer, naming what it offers', () => {
    const refused = () => describeAgent(BASE, CARD_URL, both, undefined, 'GRPC');
    expect(refused).toThrow(/--binding gRPC: the card offers no gRPC interface the rig speaks/);
    expect(refused).toThrow(/it offers: HTTP\+JSON 1\.0 at http:\/\/127\.0\.0\.1:9\/rest, JSON-RPC 1\.0/);
  });

  it('reads 0.3 cards (url, preferredTransport, additionalInterfaces) and transport-named entries', () => {
    const legacy = { url: `${BASE}/g`, protocolVersion: '0.3.0', preferredTransport: 'GRPC' };
    expect(
      cardInterfaces({ ...legacy, additionalInterfaces: [{ url: '/j', transport: 'JSONRPC' }] }, CARD_URL),
    ).toEqual([
      { binding: 'GRPC', generation: '0.3', url: `${BASE}/g` },
      { binding: 'JSONRPC', generation: '0.3', url: `${BASE}/j` },
    ]);
    const hybrid = { protocolVersion: '0.3.0', supportedInterfaces: [{ url: `${BASE}/v1`, transport: 'HTTP+JSON' }] };
    expect(cardInterfaces(hybrid, CARD_URL)).toEqual([{ binding: 'HTTP+JSON', generation: '0.3', url: `${BASE}/v1` }]);
  });
});

describe('HTTP+JSON routes and replies', () => {
  it('puts each call on its route below the interface URL (a prefixed agent keeps its prefix)', () => {
    const base = `${BASE}/agents/a1/`;
    expect(restRoute(base, 'SendMessage', '{"message":{}}')).toEqual({
      verb: 'POST',
      url: `${BASE}/agents/a1/message:send`,
      body: '{"message":{}}',
    });
    expect(restRoute(base, 'GetTask', '{"id":"t/1","historyLength":2}').url).toBe(
      `${BASE}/agents/a1/tasks/t%2F1?historyLength=2`,
    );
    expect(restRoute(base, 'SubscribeToTask', '{"id":"t"}')).toEqual({
      verb: 'GET',
      url: `${BASE}/agents/a1/tasks/t:subscribe`,
    });
  });

  it('reads the code from an ErrorInfo reason, a 0.3 body, or the status the hitl spec gives', () => {
    const aip = { error: { code: 404, message: 'nope', details: [{ reason: 'TASK_NOT_FOUND' }] } };
    expect(restErrorOf(404, aip)).toMatchObject({ code: -32001, message: 'nope' });
    const data = { extension: 'x', validation_errors: [] };
    expect(restErrorOf(422, { error: { code: 422, message: 'bad', data } })).toEqual({
      code: -32011,
      message: 'bad',
      data,
    });
    expect(restErrorOf(409, { error: 'HitlAlreadyAnsweredOrUnknownError', message: 'm' })).toMatchObject({
      code: -32010,
    });
    // A 422 with only `detail` is an invalid-answer refusal without validation_errors: the check fails it.
    expect(restErrorOf(422, { detail: 'schema mismatch' })).toEqual({
      code: -32011,
      message: 'schema mismatch',
      data: { detail: 'schema mismatch' },
    });
  });

  it('a status that names no A2A outcome (401) is the transport failing, with the status', () => {
    expect(restErrorOf(401, { error: 'unauthorized' })).toBeUndefined();
    expect(() => restReply('{"error":"unauthorized"}', 'POST x', 401)).toThrow(
      expect.objectContaining({ name: 'TransportError', httpStatus: 401 }),
    );
    expect(restReply('{"task":{"id":"t"}}', 'POST x', 200)).toEqual({ ok: true, result: { task: { id: 't' } } });
  });
});
