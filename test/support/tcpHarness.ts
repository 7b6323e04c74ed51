// One Toxiproxy under test (embedded or the real server) set up for the differential TCP tests:
// started before a describe's tests unless skipped, every proxy, upstream and client of a test
// cleaned up after it, and the calls the tests share (a proxy in front of an upstream, a toxic, a
// recorded client, an echo round trip).
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { callApi, type BackendCase, type ToxiproxyUnderTest } from './proxyBackends.ts';
import { connectRecorded, startRecordingServer, type RecordedSocket, type RecordingServer } from './tcpPeers.ts';

/** Upper slack for anything timed: scheduling on a busy CI box, never a correctness margin. */
export const SLACK_MS = 400;

export interface TcpHarness {
  /** The Toxiproxy under test, once started. */
  toxiproxy: { readonly url: string };
  upstream(onConnection?: (peer: RecordedSocket) => void): Promise<RecordingServer>;
  proxyTo(server: Pick<RecordingServer, 'address'>, toxics?: object[]): Promise<{ name: string; listen: string }>;
  addToxic(proxyName: string, toxic: object): Promise<void>;
  client(address: string): Promise<RecordedSocket>;
  echoRoundTrip(socket: RecordedSocket, message?: string): Promise<number>;
}

/** Registers the hooks in the calling describe; `name` prefixes the proxies' names. */
export function tcpHarness({ name, skipReason, start }: BackendCase): TcpHarness {
  let toxiproxy: ToxiproxyUnderTest;
  const cleanups: (() => Promise<void> | void)[] = [];
  let proxyCount = 0;

  beforeAll(async () => {
    if (!skipReason) toxiproxy = await start();
  });
  afterAll(async () => {
    await toxiproxy?.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function upstream(onConnection?: (peer: RecordedSocket) => void): Promise<RecordingServer> {
    const server = await startRecordingServer(onConnection);
    cleanups.push(() => server.close());
    return server;
  }

  /** A fresh proxy in front of `server`; returns the address clients connect to. */
  async function proxyTo(
    server: Pick<RecordingServer, 'address'>,
    toxics: object[] = [],
  ): Promise<{ name: string; listen: string }> {
    const proxyName = `${name}_${++proxyCount}`;
    const created = await callApi(toxiproxy.url, 'POST', '/proxies', {
      name: proxyName,
      listen: '127.0.0.1:0',
      upstream: server.address,
    });
    expect(created.status).toBe(201);
    cleanups.push(async () => void (await callApi(toxiproxy.url, 'DELETE', `/proxies/${proxyName}`)));
    for (const toxic of toxics) await addToxic(proxyName, toxic);
    return { name: proxyName, listen: created.json.listen };
  }

  async function addToxic(proxyName: string, toxic: object): Promise<void> {
    const reply = await callApi(toxiproxy.url, 'POST', `/proxies/${proxyName}/toxics`, toxic);
    expect(reply.status, reply.text).toBe(200);
  }

  async function client(address: string): Promise<RecordedSocket> {
    const socket = await connectRecorded(address);
    cleanups.push(() => socket.destroy());
    return socket;
  }

  /** Milliseconds for `message` to go to an echo upstream and back. */
  async function echoRoundTrip(socket: RecordedSocket, message = 'ping'): Promise<number> {
    const before = socket.received.length;
    const started = performance.now();
    socket.socket.write(message);
    await socket.untilBytes(before + message.length);
    return performance.now() - started;
  }

  return {
    toxiproxy: {
      get url() {
        return toxiproxy.url;
      },
    },
    upstream,
    proxyTo,
    addToxic,
    client,
    echoRoundTrip,
  };
}
