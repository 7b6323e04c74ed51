// A hostile agent (test/support/hostileTransportAgent.ts) against the client's bounds on unary
// calls and discovery: bodies that never end or never stop growing, headers that never come, and
// bytes that are not the protocol. Each must fail with a clear TransportError within its bound.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient } from '../rig/client/a2aClient.ts';
import { userMessage } from '../rig/client/outgoingMessage.ts';
import { TransportError } from '../rig/client/transportError.ts';
import {
  base,
  clientFor,
  failsWithin,
  hugeBytesSent,
  LIMITS,
  SLACK_MS,
  startHostileTransportAgent,
  stopHostileTransportAgent,
} from './support/hostileTransportAgent.ts';

beforeAll(startHostileTransportAgent);
afterAll(stopHostileTransportAgent);

describe('unary calls against a hostile agent', () => {
  it('a body that never ends is cut at the overall bound', async () => {
    const client = clientFor('/drip-forever');
    const err = await failsWithin(600, () => client.getTask('t'));
    expect(err.failure).toBe('timeout');
    expect(err.message).toBe(`POST ${base}/drip-forever (GetTask) did not complete within 600 ms`);
    expect(err.httpStatus).toBe(200);
    await client.close();
  });

  it('a 1 GiB body is cut at the byte bound, long before the agent gets far', async () => {
    const client = clientFor('/huge');
    const err = await failsWithin(0, () => client.getTask('t'));
    expect(err.failure).toBe('too-large');
    expect(err.message).toBe(`POST ${base}/huge (GetTask): response body exceeded 262144 bytes; the rig cut it off`);
    expect(hugeBytesSent).toBeLessThan(64 * 1024 * 1024);
    await client.close();
  });

  it('a declared 1 GiB Content-Length is refused before reading', async () => {
    const client = clientFor('/huge-declared');
    const err = await failsWithin(0, () => client.getTask('t'));
    expect(err.failure).toBe('too-large');
    expect(err.message).toMatch(/response declares 1073741824 bytes; the rig accepts at most 262144/);
    await client.close();
  });

  it('headers that never come hit the headers bound', async () => {
    const client = clientFor('/silent');
    const err = await failsWithin(300, () => client.send(userMessage()));
    expect(err.failure).toBe('headers-timeout');
    expect(err.message).toBe(`POST ${base}/silent (SendMessage): no response headers within 300 ms`);
    await client.close();
  });

  it('a body that stalls hits the idle bound', async () => {
    const client = clientFor('/stall-body');
    const err = await failsWithin(300, () => client.getTask('t'));
    expect(err.failure).toBe('idle-timeout');
    expect(err.message).toMatch(/the body stalled for more than 300 ms/);
    await client.close();
  });

  it.each([
    ['/garbage', /HTTP 500 reply is not JSON-RPC \(body is not valid JSON/],
    ['/wrong-id', /reply id 999999 does not answer request id \d+/],
    ['/proto', /"__proto__" or "constructor.prototype" key, which is refused/],
  ])('bytes that are not the protocol (%s) are a protocol failure', async (path, message) => {
    const client = clientFor(path);
    const err = await failsWithin(0, () => client.getTask('t'));
    expect(err.failure).toBe('protocol');
    expect(err.message).toMatch(message);
    await client.close();
  });

  it('answer() never throws for what the agent does: a silent agent is an error outcome', async () => {
    const client = clientFor('/silent');
    const started = performance.now();
    const outcome = await client.answer('t', '7d444840-9dc0-41e5-9c7b-c2bd6d7a1b7e', { approved: true });
    expect(outcome).toMatchObject({
      kind: 'error',
      httpStatus: undefined,
      reason: expect.stringMatching(/no response headers within 300 ms/),
    });
    expect(performance.now() - started).toBeLessThan(300 + SLACK_MS);
    await client.close();
  });

  it('close() aborts calls in flight at once', async () => {
    const client = clientFor('/silent');
    const pending = client.getTask('t', { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await client.close();
    const err = (await pending) as TransportError;
    expect(err.failure).toBe('aborted');
    expect(performance.now() - started).toBeLessThan(SLACK_MS);
  });
});

describe('discovery against a hostile agent', () => {
  it('a missing card and a 1 GiB card are one-line DiscoveryErrors', async () => {
    const missing = await A2AClient.open(`${base}/none`, { limits: LIMITS }).catch((e: Error) => e);
    expect(missing).toMatchObject({
      name: 'DiscoveryError',
      message:
        `no agent card at ${base}/none (${base}/none/.well-known/agent-card.json answered 404; ` +
        `${base}/.well-known/agent-card.json answered 404); is it an A2A agent?`,
    });
    const big = await A2AClient.open(`${base}/huge-card/`, { limits: LIMITS }).catch((e: Error) => e);
    expect(big).toMatchObject({
      name: 'DiscoveryError',
      message: expect.stringMatching(/cannot read the agent card: .*exceeded 262144 bytes/),
    });
  });
});
