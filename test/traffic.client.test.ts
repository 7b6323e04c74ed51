// What the rig's client tells a traffic observer: bytes exactly as the socket carried them (against
// a server that counts what it read and wrote), operations by their v1.0 names on a v0.3 agent while
// the method stays the wire's (the Prometheus metrics label by it), answers and decisions apart.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  A2AClient,
  userMessage,
  type ExchangeEnd,
  type ExchangeObserver,
  type ExchangeTraffic,
} from '../rig/client/index.ts';
import type { ByteTally } from '../rig/client/byteTally.ts';
import { JsonRpcTransport } from '../rig/client/jsonRpcTransport.ts';
import { TrafficRecorder } from '../rig/metrics/trafficRecorder.ts';
import type { Task } from '../rig/protocol/a2aTypes.ts';
import { startFakeAcceptanceAgent } from './support/fakeAcceptanceAgent.ts';
import { startFakeSdkAgent } from './support/fakeSdkAgent.ts';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A JSON-RPC server on a raw socket that counts, per request, the bytes it read and the bytes it wrote. */
async function countingServer(
  framing: 'length' | 'chunked',
): Promise<{ url: string; exchanges: Array<{ read: number; written: number }> }> {
  const exchanges: Array<{ read: number; written: number }> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const headEnd = buf.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buf.toString('latin1', 0, headEnd))![1]);
        const total = headEnd + 4 + length;
        if (buf.length < total) return;
        const request = JSON.parse(buf.toString('utf8', headEnd + 4, total)) as { id: number };
        buf = buf.subarray(total);
        const body = JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { note: 'é'.repeat(300) } });
        const bytes = Buffer.from(body);
        const chunk = (b: Buffer) =>
          Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')]);
        const response =
          framing === 'length'
            ? Buffer.concat([
                Buffer.from(
                  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${bytes.length}\r\n\r\n`,
                ),
                bytes,
              ])
            : Buffer.concat([
                Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n'),
                chunk(bytes.subarray(0, 100)),
                chunk(bytes.subarray(100)),
                Buffer.from('0\r\n\r\n'),
              ]);
        exchanges.push({ read: total, written: response.length });
        socket.write(response);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/rpc`, exchanges };
}

describe('bytes of a unary exchange', () => {
  it.each(['length', 'chunked'] as const)('are what the socket carried, both ways (%s framing)', async (framing) => {
    const server = await countingServer(framing);
    const transport = new JsonRpcTransport({ connections: 1 });
    closers.push(() => transport.close());
    const tallies: ByteTally[] = [];
    for (const params of [{ id: 'a' }, { id: 'ü'.repeat(500), extra: [1, 2, 3] }]) {
      const tally = { sent: 0, received: 0 };
      const reply = await transport.call(
        server.url,
        'GetTask',
        params,
        { generation: '1.0', extensions: ['https://example.com/ext'] },
        { tally },
      );
      expect(reply.ok).toBe(true);
      tallies.push(tally);
    }
    expect(tallies).toEqual(server.exchanges.map((e) => ({ sent: e.read, received: e.written })));
    // Not a constant: the second request carried 500 two-byte characters more.
    expect(tallies[1]!.sent - tallies[0]!.sent).toBeGreaterThan(1_000);
  });
});

/** Records every call as the client made it, and hands it on to a recorder. */
class Spy implements ExchangeObserver {
  readonly calls: Array<{ method: string; end: ExchangeEnd; operation?: string }> = [];
  opened = 0;
  constructor(readonly recorder = new TrafficRecorder(performance.now())) {}
  exchange(method: string, end: ExchangeEnd, latencyMs: number, traffic?: ExchangeTraffic): void {
    this.calls.push({ method, end, operation: traffic?.operation });
    this.recorder.exchange(method, end, latencyMs, traffic);
  }
  answer(): void {}
  opening(): void {
    this.opened++;
    this.recorder.opening();
  }
}

/** A client of the agent at `url` whose every exchange the spy hears; both closed after the test. */
async function spiedClient(url: string): Promise<{ spy: Spy; client: A2AClient }> {
  const discovered = await A2AClient.open(url);
  closers.push(() => discovered.close());
  const spy = new Spy();
  const client = A2AClient.forAgent(discovered.agent, { observer: spy });
  closers.push(() => client.close());
  return { spy, client };
}

function taskOf(result: { ok: boolean; value?: unknown }): Task {
  if (!result.ok || typeof result.value !== 'object' || result.value === null || !('task' in result.value))
    throw new Error(`no task: ${JSON.stringify(result)}`);
  return (result.value as { task: Task }).task;
}

describe('operations on a v0.3 agent', () => {
  it('SendMessage, answer and GetTask by their v1.0 names; the method as the wire spells it', async () => {
    const agent = await startFakeSdkAgent({ generation: '0.3', refuseSubscribe: 'json' });
    closers.push(() => agent.close());
    const { spy, client } = await spiedClient(agent.url);
    const task = taskOf(await client.send(userMessage({ text: 'ask me' })));
    const prompt = client.promptOf(task);
    if (!prompt?.ok) throw new Error('no prompt');
    expect((await client.answer(task.id, prompt.envelope.prompt_id, { approved: true })).kind).toBe('accepted');
    await client.getTask(task.id);
    await client.getTask(task.id);
    const refused = await client.subscribe(task.id);
    expect(refused.ok).toBe(false);
    expect(spy.calls).toEqual([
      { method: 'message/send', end: 'ok', operation: 'SendMessage' },
      { method: 'message/send', end: 'ok', operation: 'answer' },
      { method: 'tasks/get', end: 'ok', operation: 'GetTask' },
      { method: 'tasks/get', end: 'ok', operation: 'GetTask' },
      { method: 'tasks/resubscribe', end: 'rpc_error', operation: 'SubscribeToTask' },
    ]);
    expect(spy.opened).toBe(5);
    const record = spy.recorder.toRecord()!;
    expect(record.operations.map((o) => [o.operation, o.count, o.ok, o.rpcErrors])).toEqual([
      ['SendMessage', 1, 1, 0],
      ['answer', 1, 1, 0],
      ['GetTask', 2, 2, 0],
      ['SubscribeToTask', 1, 0, 1],
    ]);
    for (const op of record.operations) {
      expect(op.bytesSent, op.operation).toBeGreaterThan(150);
      expect(op.bytesReceived, op.operation).toBeGreaterThan(50);
    }
    expect(spy.recorder.inFlight).toBe(0);
  });

  it('an acceptance decision is `decision`, its creating send SendMessage', async () => {
    const agent = await startFakeAcceptanceAgent({ generation: '0.3' });
    closers.push(() => agent.close());
    const { spy, client } = await spiedClient(agent.url);
    const task = taskOf(
      await client.acceptance.send(userMessage({ text: 'make it' }), { criteria: { maxRejections: 1 } }),
    );
    await client.acceptance.decide(task.id, task.contextId, { action: 'accept' });
    expect(spy.calls.map((c) => [c.method, c.operation])).toEqual([
      ['message/send', 'SendMessage'],
      ['message/send', 'decision'],
    ]);
  });
});
