// The Toxiproxy HTTP API, embedded and real server compared request by request (when the real
// binary is here): one scripted session against each, the transcripts (status, content type,
// body, ports normalised) identical.
import { describe, expect, it } from 'vitest';
import { startRecordingServer } from './support/tcpPeers.ts';
import { backendCases, callApi, type ToxiproxyUnderTest } from './support/proxyBackends.ts';

const PORT = /(127\.0\.0\.1|\[::\]):\d+/g;
const normalise = (text: string) => text.replace(PORT, '$1:PORT');

/** The same requests against both servers; every status, content type and body must match. */
describe.skipIf(backendCases().some((c) => c.skipReason))('embedded vs real: request transcript', () => {
  it('answers a mixed sequence of calls identically (ports aside)', async () => {
    const [embedded, real] = await Promise.all(backendCases().map((c) => c.start()));
    const upstream = await startRecordingServer();
    const steps: [string, string, unknown?][] = [
      ['GET', '/version'],
      ['GET', '/proxies'],
      // No listen: Go's net.Listen("tcp", "") takes a free port on every interface.
      ['POST', '/proxies', { name: 'd', upstream: upstream.address }],
      ['POST', '/populate', [{ name: 'e', upstream: upstream.address }]],
      ['DELETE', '/proxies/d'],
      ['DELETE', '/proxies/e'],
      ['POST', '/proxies', { name: 'a', listen: '127.0.0.1:0', upstream: upstream.address }],
      ['POST', '/proxies', { Name: 'b', UPSTREAM: upstream.address, listen: '127.0.0.1:0', extra: [1] }],
      ['POST', '/proxies', [1]],
      ['POST', '/proxies/a/toxics', { type: 'slicer', attributes: { average_size: 10, delay: 5, unknown: true } }],
      ['POST', '/proxies/a/toxics', { type: 'noop' }],
      ['POST', '/proxies/a/toxics', { name: 't', type: 'timeout', attributes: null, toxicity: 2 }],
      ['POST', '/proxies/a/toxics', { type: 'latency', toxicity: 'x' }],
      ['POST', '/proxies/a/toxics', { type: 'latency', attributes: { latency: 1, jitter: null } }],
      ['PATCH', '/proxies/a/toxics/t', { attributes: { timeout: 7 }, toxicity: 0.25 }],
      ['GET', '/proxies/a'],
      [
        'POST',
        '/populate',
        [
          { name: 'a', listen: '127.0.0.1:0', upstream: upstream.address },
          { name: 'c', upstream: upstream.address, listen: '127.0.0.1:0' },
        ],
      ],
      ['POST', '/populate', { name: 'x' }],
      ['POST', '/populate', null],
      ['GET', '/proxies'],
      ['PATCH', '/proxies/c', { enabled: false }],
      ['POST', '/reset'],
      ['GET', '/proxies'],
      ['DELETE', '/proxies/b'],
      ['DELETE', '/proxies/b'],
      ['GET', '/proxies/a/toxics/'],
      ['HEAD', '/proxies'],
    ];
    try {
      const transcript = async (server: ToxiproxyUnderTest) => {
        const replies: string[] = [];
        for (const [method, path, body] of steps) {
          const reply = await callApi(server.url, method, path, body);
          replies.push(`${method} ${path} → ${reply.status} ${reply.contentType} ${normalise(reply.text)}`);
        }
        return replies;
      };
      expect(await transcript(embedded!)).toEqual(await transcript(real!));
    } finally {
      await upstream.close();
      await Promise.all([embedded?.close(), real?.close()]);
    }
  });
});
