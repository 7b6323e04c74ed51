// The embedded proxy dials an upstream named "localhost" (or no host, Go's ":port") without asking
// the resolver: Node's getaddrinfo is slow on the first dial of a process, which showed as the first
// connection through a fresh proxy running late over a latency toxic (docs/testing.md, "What the
// tests were written against"). Counted, not timed: the dial makes no lookup at all.
import dns from 'node:dns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedToxiproxy } from '../rig/proxy/embedded/embeddedToxiproxy.ts';
import { callApi } from './support/proxyBackends.ts';
import { connectRecorded, startRecordingServer } from './support/tcpPeers.ts';

describe('embedded proxy: dialling the upstream', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(['localhost', ''])('reaches an upstream on host "%s" with no DNS lookup', async (host) => {
    const toxiproxy = await startEmbeddedToxiproxy();
    const upstream = await startRecordingServer();
    try {
      const created = await callApi(toxiproxy.url, 'POST', '/proxies', {
        name: 'p',
        listen: '127.0.0.1:0',
        upstream: `${host}:${upstream.port}`,
      });
      const lookups = vi.spyOn(dns, 'lookup');
      const client = await connectRecorded(created.json.listen);
      client.socket.write('ping');
      await client.untilBytes(4);
      client.destroy();
      expect([client.text, lookups.mock.calls.length]).toEqual(['ping', 0]);
    } finally {
      await upstream.close();
      await toxiproxy.close();
    }
  });
});
