// A hostile agent (test/support/hostileTransportAgent.ts) against the client's bounds on streams:
// SSE streams that run forever, flood, stall or never finish an event, and replay sockets that
// flood or send giants. Each must fail with a clear TransportError within its bound: the rig never
// hangs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userMessage } from '../rig/client/outgoingMessage.ts';
import {
  base,
  clientFor,
  SLACK_MS,
  startHostileTransportAgent,
  stopHostileTransportAgent,
} from './support/hostileTransportAgent.ts';

beforeAll(startHostileTransportAgent);
afterAll(stopHostileTransportAgent);

describe('SSE streams against a hostile agent', () => {
  async function openStream(path: string) {
    const client = clientFor(path);
    const opened = await client.sendStream(userMessage());
    if (!opened.ok) throw new Error('stream refused');
    return { client, stream: opened.stream };
  }

  it('a stream that never ends is cut at the stream bound, keeping what it received', async () => {
    const { client, stream } = await openStream('/sse-forever');
    const started = performance.now();
    const end = await stream.ended;
    expect(performance.now() - started).toBeLessThan(800 + SLACK_MS);
    expect(end.reason).toBe('failed');
    expect(end.reason === 'failed' && end.error.failure).toBe('timeout');
    expect(end.reason === 'failed' && end.error.message).toBe(
      `SSE stream of POST ${base}/sse-forever (SendStreamingMessage) did not complete within 800 ms`,
    );
    expect(stream.events.length).toBeGreaterThan(3);
    expect(client.history.connection(stream.connectionId)?.closeReason).toMatch(/did not complete within 800 ms/);
    await client.close();
  });

  it('a flood is cut at the byte bound', async () => {
    const { client, stream } = await openStream('/sse-flood');
    const end = await stream.ended;
    expect(end.reason === 'failed' && end.error.failure).toBe('too-large');
    expect(end.reason === 'failed' && end.error.message).toMatch(/exceeded 262144 bytes; the rig cut it off/);
    await client.close();
  });

  it('an event that never ends is cut at the event bound', async () => {
    const { client, stream } = await openStream('/sse-giant-event');
    const end = await stream.ended;
    expect(end.reason === 'failed' && end.error.message).toMatch(/sent one event longer than 65536 characters/);
    await client.close();
  });

  it('a stream that goes silent hits the idle bound', async () => {
    const { client, stream } = await openStream('/sse-silent');
    const started = performance.now();
    const end = await stream.ended;
    expect(performance.now() - started).toBeLessThan(300 + SLACK_MS);
    expect(end.reason === 'failed' && end.error.failure).toBe('idle-timeout');
    expect(stream.events).toHaveLength(1);
    await client.close();
  });

  it('a frame that is not an A2A event fails the stream with a protocol error', async () => {
    const { client, stream } = await openStream('/sse-not-a2a');
    const end = await stream.ended;
    expect(end.reason === 'failed' && end.error.failure).toBe('protocol');
    expect(end.reason === 'failed' && end.error.message).toMatch(/frame 1 is not an A2A stream event/);
    await client.close();
  });

  it('waiting on a stream is bounded too', async () => {
    const { client, stream } = await openStream('/sse-silent');
    await expect(stream.waitFor((e) => e.seq === 42, 100)).rejects.toThrow(/no awaited event within 100 ms|ended/);
    await client.close();
  });
});

describe('replay sockets against a hostile agent', () => {
  it.each([
    ['huge-frame', 'too-large', /the agent sent a frame over 65536 bytes \(the rig's bound on one frame\)/],
    ['garbage', 'protocol', /frame 1 is not a replay frame: body is not valid JSON/],
    ['wrong-task', 'protocol', /frame.taskId "other" is not the task asked for/],
    ['flood', 'too-large', /sent more than 200 frames/],
    ['silent', 'timeout', /outlived its 500 ms bound/],
  ])('%s ends the socket as failed (%s)', async (task, failure, message) => {
    const client = clientFor('/');
    const started = performance.now();
    const socket = await client.replay(task, { limits: { maxFrameBytes: 64 * 1024, maxFrames: 200, lifetimeMs: 500 } });
    const end = await socket.ended;
    expect(performance.now() - started).toBeLessThan(500 + SLACK_MS);
    expect(end.reason).toBe('failed');
    expect(end.reason === 'failed' && end.error.failure).toBe(failure);
    expect(end.reason === 'failed' && end.error.message).toMatch(message);
    await client.close();
  });

  it('a flood of small frames is cut by the bytes a socket may carry in all, not only by their count', async () => {
    const client = clientFor('/');
    const socket = await client.replay('flood', {
      limits: { maxFrames: 1_000_000, maxSocketBytes: 16 * 1024, lifetimeMs: 2_000 },
    });
    const end = await socket.ended;
    expect(end.reason === 'failed' && end.error.failure).toBe('too-large');
    expect(end.reason === 'failed' && end.error.message).toMatch(
      /replay socket of http:\/\/127\.0\.0\.1:\d+ for task flood sent more than 16384 bytes in \d+ frames/,
    );
    await client.close();
  });
});
