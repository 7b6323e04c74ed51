// Where a card's JSON-RPC endpoint lies against the URL the user gave (rig/engine/environment/cardEndpoint.ts):
// the same origin and path is the target; loopback names of one port are one host; anything at
// another host, port or scheme is elsewhere, and another path of the same origin is said.
import { describe, expect, it } from 'vitest';
import { placeCardEndpoint, refusalLine, sameOrigin } from '../rig/engine/environment/cardEndpoint.ts';

describe('placeCardEndpoint', () => {
  it('the target itself, also through a loopback alias or a trailing slash', () => {
    expect(placeCardEndpoint('http://127.0.0.1:8080/', 'http://127.0.0.1:8080')).toEqual({
      placement: 'target',
      rpcUrl: 'http://127.0.0.1:8080/',
      directRpcUrl: 'http://127.0.0.1:8080/',
    });
    // The direct endpoint is spelled as the user spelled the host.
    expect(placeCardEndpoint('http://localhost:8080/', 'http://127.0.0.1:8080').directRpcUrl).toBe(
      'http://127.0.0.1:8080/',
    );
    expect(placeCardEndpoint('http://[::1]:8080/a2a/', 'http://localhost:8080/a2a').placement).toBe('target');
    expect(placeCardEndpoint('https://agent.example/', 'https://agent.example:443').placement).toBe('target');
  });

  it('another path of the same origin', () => {
    expect(placeCardEndpoint('http://localhost:8080/internal-admin', 'http://127.0.0.1:8080')).toEqual({
      placement: 'other-path',
      rpcUrl: 'http://localhost:8080/internal-admin',
      directRpcUrl: 'http://127.0.0.1:8080/internal-admin',
    });
    expect(placeCardEndpoint('http://127.0.0.1:8080/', 'http://127.0.0.1:8080/agent').placement).toBe('other-path');
  });

  it('another origin: host, loopback address, port or scheme', () => {
    for (const rpc of [
      'http://127.0.0.2:8080/',
      'http://127.0.0.1:8081/',
      'https://127.0.0.1:8080/',
      'http://agent.example:8080/',
    ]) {
      expect(placeCardEndpoint(rpc, 'http://127.0.0.1:8080'), rpc).toEqual({
        placement: 'other-origin',
        rpcUrl: rpc,
        directRpcUrl: rpc,
      });
    }
    expect(sameOrigin(new URL('http://a.example/'), new URL('http://a.example:80/x'))).toBe(true);
    expect(sameOrigin(new URL('http://a.example/'), new URL('http://b.example/'))).toBe(false);
  });

  it('refuses another origin unless followed, and a non-http(s) endpoint always', () => {
    const target = '--target http://127.0.0.1:8080';
    const card = 'http://127.0.0.1:8080/.well-known/agent-card.json';
    const elsewhere = placeCardEndpoint('http://127.0.0.2:8080/', 'http://127.0.0.1:8080');
    expect(refusalLine(elsewhere, card, target, false)).toContain('pass --follow-card-endpoint');
    expect(refusalLine(elsewhere, card, target, true)).toBeUndefined();
    expect(
      refusalLine(placeCardEndpoint('http://localhost:8080/admin', 'http://127.0.0.1:8080'), card, target, false),
    ).toBeUndefined();
    for (const rpc of ['file:///etc/passwd', 'ws://127.0.0.1:8080/']) {
      expect(refusalLine(placeCardEndpoint(rpc, 'http://127.0.0.1:8080'), card, target, true), rpc).toBe(
        `the agent card at ${card} names ${rpc} as its JSON-RPC endpoint, which is not an http(s) URL`,
      );
    }
  });
});
