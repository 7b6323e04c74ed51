// Every toxic's observable effect on loopback traffic, asserted the same way against the embedded
// proxy and the real Toxiproxy. A difference between them is a bug in ours. Timings use generous
// tolerances (a loaded 2-core box); every wait is bounded.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { backendCases, callApi } from './support/proxyBackends.ts';
import { SLACK_MS, tcpHarness } from './support/tcpHarness.ts';

describe.each(backendCases())('$name Toxiproxy: TCP behaviour of each toxic', (backend) => {
  const { toxiproxy, upstream, proxyTo, client, echoRoundTrip } = tcpHarness(backend);

  describe.skipIf(backend.skipReason !== undefined)('', () => {
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

    it('bandwidth holds throughput to its rate: never 15 % above it, nor 15 % below at the best of three', async () => {
      const bytes = 150_000;
      const rateKBps = 150;
      const transfer = async (): Promise<number> => {
        const server = await upstream((peer) => peer.socket.end(randomBytes(bytes)));
        const socket = await client(
          (await proxyTo(server, [{ type: 'bandwidth', attributes: { rate: rateKBps } }])).listen,
        );
        await socket.untilBytes(bytes, 10_000);
        // From the first byte to the last, so connection set-up on a busy box does not count.
        const first = socket.reads[0]!;
        const seconds = (socket.reads.at(-1)!.at - first.at) / 1000;
        return (bytes - first.data.length) / 1000 / seconds;
      };
      // A busy box wakes the toxic's sleeps late and only ever slows a transfer: each one must stay
      // under the rate, and the fastest of up to three (the least of the box's scheduling in it)
      // must reach 85 % of it.
      const rates: number[] = [];
      while (rates.length < 3 && !(Math.max(...rates) > rateKBps * 0.85)) {
        rates.push(await transfer());
        expect(rates.at(-1)).toBeLessThan(rateKBps * 1.15);
      }
      expect(Math.max(...rates), `KB/s: ${rates.map((r) => r.toFixed(1)).join(', ')}`).toBeGreaterThan(rateKBps * 0.85);
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
            { type: 'slicer', attributes: { average_size: 100, size_variation: 0, delay: 50_000 } },
          ])
        ).listen,
      );
      await socket.untilBytes(payload.length);
      expect(socket.received.equals(payload)).toBe(true);
      // Ten pieces of 100 bytes, 50 ms apart: the last byte comes at least nine gaps after the
      // connection opened, a bound below that a busy reader can only push later. How many reads the
      // pieces arrive in is the reader's (a busy one takes several in one), so it is not counted.
      expect(socket.reads.at(-1)!.at - socket.openedAt).toBeGreaterThanOrEqual(9 * 50 - 5);
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
  });
});
