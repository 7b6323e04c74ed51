// The fault layer's heart: every toxic's observable effect on loopback traffic, asserted the same
// way against the embedded proxy and the real Toxiproxy. A difference between them is a bug in ours.
// Timings use generous tolerances (a loaded 2-core box); every wait is bounded.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backendCases, callApi, type ToxiproxyUnderTest } from './support/proxyBackends.ts';
import { freePort } from './support/localHost.ts';
import {
  connectRecorded,
  startRecordingServer,
  type RecordedSocket,
  type RecordingServer,
} from './support/tcpPeers.ts';

// Upper slack for anything timed: scheduling on a busy CI box, never a correctness margin.
const SLACK_MS = 400;

describe.each(backendCases())('$name Toxiproxy: TCP behaviour', ({ name, skipReason, start }) => {
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

  describe.skipIf(skipReason !== undefined)('', () => {
    it('relays bytes both ways unchanged', async () => {
      const proxy = await proxyTo(await upstream());
      const socket = await client(proxy.listen);
      const payload = randomBytes(256 * 1024);
      socket.socket.write(payload);
      await socket.untilBytes(payload.length);
      expect(socket.received.equals(payload)).toBe(true);
    });

    it('latency delays each direction by about its latency', async () => {
      const plain = await client((await proxyTo(await upstream())).listen);
      expect(await echoRoundTrip(plain)).toBeLessThan(150);

      const down = await client(
        (await proxyTo(await upstream(), [{ type: 'latency', attributes: { latency: 200 } }])).listen,
      );
      const downRtt = await echoRoundTrip(down);
      expect(downRtt).toBeGreaterThanOrEqual(195);
      expect(downRtt).toBeLessThan(200 + SLACK_MS);

      const server = await upstream();
      const up = await client(
        (await proxyTo(server, [{ type: 'latency', stream: 'upstream', attributes: { latency: 200 } }])).listen,
      );
      const sentAt = performance.now();
      up.socket.write('ping');
      const peer = await server.peer(0);
      await peer.untilBytes(4);
      expect(peer.reads[0]!.at - sentAt).toBeGreaterThanOrEqual(195);
      expect(peer.reads[0]!.at - sentAt).toBeLessThan(200 + SLACK_MS);
    });

    it('latency shifts a stream in time rather than slowing it', async () => {
      const payload = randomBytes(2 * 1024 * 1024);
      const server = await upstream((peer) => peer.socket.end(payload));
      const socket = await client((await proxyTo(server, [{ type: 'latency', attributes: { latency: 100 } }])).listen);
      await socket.untilBytes(payload.length, 10_000);
      expect(socket.reads[0]!.at - socket.openedAt).toBeGreaterThanOrEqual(95);
      expect(socket.reads.at(-1)!.at - socket.openedAt).toBeLessThan(100 + SLACK_MS * 2);
    });

    it('jitter keeps each delay within latency ± jitter', async () => {
      const socket = await client(
        (await proxyTo(await upstream(), [{ type: 'latency', attributes: { latency: 100, jitter: 60 } }])).listen,
      );
      for (let i = 0; i < 5; i++) {
        const rtt = await echoRoundTrip(socket, `m${i}`);
        expect(rtt).toBeGreaterThanOrEqual(38);
        expect(rtt).toBeLessThan(160 + SLACK_MS);
      }
    });

    it('bandwidth holds throughput within ±15 % of the rate', async () => {
      const bytes = 150_000;
      const rateKBps = 150;
      const server = await upstream((peer) => peer.socket.end(randomBytes(bytes)));
      const socket = await client(
        (await proxyTo(server, [{ type: 'bandwidth', attributes: { rate: rateKBps } }])).listen,
      );
      await socket.untilBytes(bytes, 10_000);
      // From the first byte to the last, so connection set-up on a busy box does not count.
      const first = socket.reads[0]!;
      const seconds = (socket.reads.at(-1)!.at - first.at) / 1000;
      const measuredKBps = (bytes - first.data.length) / 1000 / seconds;
      expect(measuredKBps).toBeGreaterThan(rateKBps * 0.85);
      expect(measuredKBps).toBeLessThan(rateKBps * 1.15);
    });

    it('limit_data lets exactly N bytes through downstream, then closes', async () => {
      const server = await upstream((peer) => peer.socket.write(randomBytes(5_000)));
      const socket = await client(
        (await proxyTo(server, [{ type: 'limit_data', attributes: { bytes: 1_000 } }])).listen,
      );
      await socket.untilFinished();
      expect(socket.endedAt).not.toBeNull();
      expect(socket.received.length).toBe(1_000);
    });

    it('limit_data lets exactly N bytes through upstream, then closes', async () => {
      const server = await upstream(() => {});
      const socket = await client(
        (await proxyTo(server, [{ type: 'limit_data', stream: 'upstream', attributes: { bytes: 777 } }])).listen,
      );
      socket.socket.write(randomBytes(5_000));
      const peer = await server.peer(0);
      await peer.untilFinished();
      expect(peer.received.length).toBe(777);
      await socket.untilFinished();
    });

    it('reset_peer surfaces ECONNRESET after its timeout', async () => {
      const socket = await client(
        (await proxyTo(await upstream(), [{ type: 'reset_peer', attributes: { timeout: 300 } }])).listen,
      );
      const sentAt = performance.now();
      socket.socket.write('ping');
      await socket.untilFinished();
      expect(socket.error?.code).toBe('ECONNRESET');
      expect(socket.received.length).toBe(0);
      expect(socket.finishedAt! - sentAt).toBeGreaterThanOrEqual(290);
      expect(socket.finishedAt! - sentAt).toBeLessThan(300 + SLACK_MS);
    });

    it('reset_peer upstream resets both the upstream and the client', async () => {
      const server = await upstream();
      const socket = await client(
        (await proxyTo(server, [{ type: 'reset_peer', stream: 'upstream', attributes: { timeout: 0 } }])).listen,
      );
      socket.socket.write('ping');
      const peer = await server.peer(0);
      await peer.untilFinished();
      await socket.untilFinished();
      expect(peer.error?.code).toBe('ECONNRESET');
      expect(peer.received.length).toBe(0);
      expect(socket.error?.code).toBe('ECONNRESET');
    });

    it('timeout swallows data and closes once idle for its time', async () => {
      const socket = await client(
        (await proxyTo(await upstream(), [{ type: 'timeout', attributes: { timeout: 400 } }])).listen,
      );
      socket.socket.write('ping');
      await socket.untilFinished();
      expect(socket.received.length).toBe(0);
      expect(socket.finishedAt! - socket.openedAt).toBeGreaterThanOrEqual(390);
      expect(socket.finishedAt! - socket.openedAt).toBeLessThan(400 + SLACK_MS * 2);
    });

    it('timeout 0 never closes, and removing it cuts the connection it held', async () => {
      const proxy = await proxyTo(await upstream(), [{ type: 'timeout', attributes: { timeout: 0 } }]);
      const socket = await client(proxy.listen);
      socket.socket.write('ping');
      await expect(socket.untilFinished(700)).rejects.toThrow(/timed out/);
      expect(socket.received.length).toBe(0);
      expect((await callApi(toxiproxy.url, 'DELETE', `/proxies/${proxy.name}/toxics/timeout_downstream`)).status).toBe(
        204,
      );
      await socket.untilFinished();
      expect(socket.received.length).toBe(0);
    });

    it('slicer splits a write into delayed pieces, bytes intact', async () => {
      const payload = randomBytes(1_000);
      const server = await upstream((peer) => peer.socket.write(payload));
      const socket = await client(
        (
          await proxyTo(server, [
            { type: 'slicer', attributes: { average_size: 100, size_variation: 0, delay: 20_000 } },
          ])
        ).listen,
      );
      await socket.untilBytes(payload.length);
      expect(socket.received.equals(payload)).toBe(true);
      expect(socket.reads.length).toBeGreaterThanOrEqual(8);
      expect(Math.max(...socket.reads.map((r) => r.data.length))).toBeLessThanOrEqual(100);
      expect(socket.reads.at(-1)!.at - socket.reads[0]!.at).toBeGreaterThanOrEqual(200);
    });

    it('slow_close delays the close but not the data', async () => {
      const server = await upstream((peer) => peer.socket.end('bye'));
      const socket = await client((await proxyTo(server, [{ type: 'slow_close', attributes: { delay: 500 } }])).listen);
      await socket.untilFinished();
      expect(socket.text).toBe('bye');
      expect(socket.reads[0]!.at - socket.openedAt).toBeLessThan(SLACK_MS);
      expect(socket.finishedAt! - socket.reads[0]!.at).toBeGreaterThanOrEqual(450);
    });

    it('slow_close upstream delays the close towards the upstream', async () => {
      const server = await upstream(() => {});
      const socket = await client(
        (await proxyTo(server, [{ type: 'slow_close', stream: 'upstream', attributes: { delay: 300 } }])).listen,
      );
      const endedAt = performance.now();
      socket.socket.end('abc');
      const peer = await server.peer(0);
      await peer.untilFinished();
      expect(peer.text).toBe('abc');
      expect(peer.finishedAt! - endedAt).toBeGreaterThanOrEqual(290);
      expect(peer.finishedAt! - endedAt).toBeLessThan(300 + SLACK_MS);
    });

    it(
      'reset_peer present at connect makes any close a reset, ' + 'even at toxicity 0; added later it does not',
      async () => {
        // The upstream closes without data: data and RST arriving together can read as a FIN.
        const server = await upstream((peer) => peer.socket.end());
        const proxy = await proxyTo(server, [{ type: 'reset_peer', toxicity: 0, attributes: { timeout: 0 } }]);
        const atConnect = await client(proxy.listen);
        await atConnect.until(() => atConnect.closedAt !== null || atConnect.endedAt !== null, 'a reset or a FIN');
        expect(atConnect.error?.code).toBe('ECONNRESET');

        const echo = await proxyTo(await upstream());
        const live = await client(echo.listen);
        await echoRoundTrip(live, 'x');
        await addToxic(echo.name, { type: 'reset_peer', attributes: { timeout: 0 } });
        live.socket.write('y');
        await live.untilFinished();
        expect(live.text).toBe('x');
        expect(live.endedAt).not.toBeNull();
        expect(live.error).toBeNull();
      },
    );

    it('toxicity 0 spares every connection and 1 hits every one', async () => {
      const proxy = await proxyTo(await upstream(), [{ type: 'latency', toxicity: 0, attributes: { latency: 400 } }]);
      for (let i = 0; i < 3; i++) expect(await echoRoundTrip(await client(proxy.listen))).toBeLessThan(200);
      await addToxic(proxy.name, { type: 'latency', name: 'always', toxicity: 1, attributes: { latency: 300 } });
      for (let i = 0; i < 2; i++) expect(await echoRoundTrip(await client(proxy.listen))).toBeGreaterThanOrEqual(295);
    });

    it('a toxic added to an open connection applies to it, and removing it restores it', async () => {
      const proxy = await proxyTo(await upstream());
      const socket = await client(proxy.listen);
      expect(await echoRoundTrip(socket, 'a')).toBeLessThan(150);
      await addToxic(proxy.name, { type: 'latency', attributes: { latency: 250 } });
      expect(await echoRoundTrip(socket, 'b')).toBeGreaterThanOrEqual(245);
      expect((await callApi(toxiproxy.url, 'DELETE', `/proxies/${proxy.name}/toxics/latency_downstream`)).status).toBe(
        204,
      );
      expect(await echoRoundTrip(socket, 'c')).toBeLessThan(150);
    });

    it('a toxic update applies to open connections; limit_data keeps its count across it', async () => {
      const proxy = await proxyTo(await upstream(), [
        { type: 'latency', attributes: { latency: 50 } },
        { type: 'limit_data', attributes: { bytes: 1_000 } },
      ]);
      const socket = await client(proxy.listen);
      socket.socket.write(randomBytes(600));
      await socket.untilBytes(600);
      await callApi(toxiproxy.url, 'PATCH', `/proxies/${proxy.name}/toxics/latency_downstream`, {
        attributes: { latency: 300 },
      });
      await callApi(toxiproxy.url, 'PATCH', `/proxies/${proxy.name}/toxics/limit_data_downstream`, {
        attributes: { bytes: 800 },
      });
      const sentAt = performance.now();
      socket.socket.write(randomBytes(600));
      await socket.untilFinished();
      expect(socket.received.length).toBe(800);
      expect(socket.reads.at(-1)!.at - sentAt).toBeGreaterThanOrEqual(295);
    });

    it('removing a toxic mid-flight drops nothing', async () => {
      const payload = randomBytes(300_000);
      let flushed!: () => void;
      const inProxy = new Promise<void>((resolve) => (flushed = resolve));
      const server = await upstream((peer) => peer.socket.write(payload, () => flushed()));
      const proxy = await proxyTo(server, [{ type: 'latency', attributes: { latency: 2_000 } }]);
      const socket = await client(proxy.listen);
      await inProxy; // handed to the kernel, so on its way into the proxy's latency queue
      expect((await callApi(toxiproxy.url, 'DELETE', `/proxies/${proxy.name}/toxics/latency_downstream`)).status).toBe(
        204,
      );
      await socket.untilBytes(payload.length, 1_500);
      expect(socket.received.equals(payload)).toBe(true);
    });

    it('toxics of one direction apply in the order added', async () => {
      const payload = randomBytes(2_000);
      const server = await upstream((peer) => peer.socket.write(payload));
      const socket = await client(
        (
          await proxyTo(server, [
            { type: 'latency', attributes: { latency: 100 } },
            { type: 'slicer', attributes: { average_size: 200, size_variation: 50, delay: 1_000 } },
            { type: 'limit_data', attributes: { bytes: 1_500 } },
          ])
        ).listen,
      );
      await socket.untilFinished();
      expect(socket.received.equals(payload.subarray(0, 1_500))).toBe(true);
      expect(socket.reads.length).toBeGreaterThan(3);
      expect(socket.reads[0]!.at - socket.openedAt).toBeGreaterThanOrEqual(95);
    });

    it('timeout upstream swallows requests and closes both sides', async () => {
      const server = await upstream();
      const socket = await client(
        (await proxyTo(server, [{ type: 'timeout', stream: 'upstream', attributes: { timeout: 300 } }])).listen,
      );
      socket.socket.write('hi');
      const peer = await server.peer(0);
      await socket.untilFinished();
      await peer.untilFinished();
      expect([peer.received.length, socket.received.length]).toEqual([0, 0]);
      expect(socket.finishedAt! - socket.openedAt).toBeGreaterThanOrEqual(290);
    });

    it('deleting a proxy cuts its connections', async () => {
      const server = await upstream();
      const proxy = await proxyTo(server);
      const socket = await client(proxy.listen);
      await echoRoundTrip(socket);
      expect((await callApi(toxiproxy.url, 'DELETE', `/proxies/${proxy.name}`)).status).toBe(204);
      await socket.untilFinished();
      await (await server.peer(0)).untilFinished();
    });

    it('enabled:false cuts open connections and refuses new ones; enabling again serves', async () => {
      const proxy = await proxyTo(await upstream());
      const socket = await client(proxy.listen);
      await echoRoundTrip(socket);
      const disabled = await callApi(toxiproxy.url, 'PATCH', `/proxies/${proxy.name}`, { enabled: false });
      expect(disabled.json.enabled).toBe(false);
      await socket.untilFinished();
      await expect(connectRecorded(proxy.listen)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      const enabled = await callApi(toxiproxy.url, 'PATCH', `/proxies/${proxy.name}`, { enabled: true });
      expect(enabled.json.listen).toBe(proxy.listen);
      expect(await echoRoundTrip(await client(proxy.listen))).toBeLessThan(150);
    });

    it('a client half-close ends the whole connection (half-closes are not relayed)', async () => {
      const server = await upstream(() => {});
      const socket = await client((await proxyTo(server)).listen);
      socket.socket.end('last words');
      const peer = await server.peer(0);
      await peer.untilFinished();
      await socket.untilFinished();
      expect(peer.text).toBe('last words');
    });

    it('an unreachable upstream closes the accepted client', async () => {
      // Below the ephemeral range, so the proxy's dial cannot connect to itself (see freePort).
      const gone = { address: `127.0.0.1:${await freePort()}` };
      const socket = await client((await proxyTo(gone)).listen);
      await socket.untilFinished();
      expect(socket.received.length).toBe(0);
    });
  });
});
