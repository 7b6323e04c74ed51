// The fault layer's heart, its lifecycle: toxics added, updated and removed on open connections,
// toxicity, the order of toxics, proxies deleted or disabled, half-closes and unreachable
// upstreams, asserted the same way against the embedded proxy and the real Toxiproxy (their
// effects one by one: proxy.differentialToxics.test.ts). A difference between them is a bug in
// ours. Timings use generous tolerances (a loaded 2-core box); every wait is bounded.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { backendCases, callApi } from './support/proxyBackends.ts';
import { freePort } from './support/localHost.ts';
import { tcpHarness } from './support/tcpHarness.ts';
import { connectRecorded } from './support/tcpPeers.ts';

describe.each(backendCases())('$name Toxiproxy: TCP behaviour', (backend) => {
  const { toxiproxy, upstream, proxyTo, addToxic, client, echoRoundTrip } = tcpHarness(backend);

  describe.skipIf(backend.skipReason !== undefined)('', () => {
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
            { type: 'slicer', attributes: { average_size: 200, size_variation: 50, delay: 40_000 } },
            { type: 'limit_data', attributes: { bytes: 1_500 } },
          ])
        ).listen,
      );
      await socket.untilFinished();
      expect(socket.received.equals(payload.subarray(0, 1_500))).toBe(true);
      // Latency first: nothing before 100 ms. Then slices of at most 250 bytes, 40 ms apart: the
      // 1,500th byte comes after at least six of them. Both are bounds below, which a busy reader can
      // only push later (how many reads the slices arrive in is the reader's, so it is not counted).
      expect(socket.reads[0]!.at - socket.openedAt).toBeGreaterThanOrEqual(95);
      expect(socket.reads.at(-1)!.at - socket.openedAt).toBeGreaterThanOrEqual(95 + 5 * 40);
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
