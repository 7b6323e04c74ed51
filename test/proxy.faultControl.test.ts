// The engine-facing fault API over toxiproxy-node-client, on each backend: proxies in front of an
// upstream, toxics with typed attributes (reset_peer and limit_data included), enable/disable,
// reset (of its own proxies only), a taken name stepped around, the backend record, and that
// close() leaves no proxy behind.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultControl, FaultControlError, ProxyExistsError } from '../rig/proxy/faultControl.ts';
import { startEmbeddedToxiproxy } from '../rig/proxy/embedded/embeddedToxiproxy.ts';
import { UserError } from '../rig/protocol/userError.ts';
import { backendCases, callApi, type ToxiproxyUnderTest } from './support/proxyBackends.ts';
import { connectRecorded, startRecordingServer, type RecordingServer } from './support/tcpPeers.ts';

describe.each(backendCases())('FaultControl over the $name Toxiproxy', ({ name, skipReason, start }) => {
  let toxiproxy: ToxiproxyUnderTest;
  let upstream: RecordingServer;
  let faults: FaultControl;

  beforeAll(async () => {
    if (skipReason) return;
    toxiproxy = await start();
    upstream = await startRecordingServer();
    faults = FaultControl.over({
      kind: name === 'real' ? 'spawned' : 'embedded',
      url: toxiproxy.url,
      version: toxiproxy.version,
      detail: name,
      passedOver: [],
      close: () => toxiproxy.close(),
    });
  });
  afterAll(async () => {
    await upstream?.close();
    await faults?.close();
  });

  describe.skipIf(skipReason !== undefined)('', () => {
    it('records which backend it drives', () => {
      expect(faults.record).toMatchObject({
        kind: name === 'real' ? 'spawned' : 'embedded',
        version: toxiproxy.version,
        url: toxiproxy.url,
      });
    });

    it('puts a proxy in front of an upstream, adds, updates and removes toxics', async () => {
      const proxy = await faults.createProxy('svc', upstream.address);
      expect(proxy).toEqual({
        name: 'svc',
        listen: expect.stringMatching(/^127\.0\.0\.1:[1-9]\d*$/),
        upstream: upstream.address,
        enabled: true,
      });
      expect(await faults.addToxic('svc', { type: 'latency', attributes: { latency: 50 } })).toEqual({
        name: 'latency_downstream',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 50, jitter: 0 },
      });
      expect(
        await faults.addToxic('svc', {
          type: 'limit_data',
          stream: 'upstream',
          toxicity: 0.5,
          attributes: { bytes: 100 },
        }),
      ).toMatchObject({
        name: 'limit_data_upstream',
        toxicity: 0.5,
        attributes: { bytes: 100 },
      });
      await faults.addToxic('svc', { type: 'reset_peer', name: 'rst', attributes: { timeout: 5 } });
      expect(await faults.updateToxic('svc', 'latency_downstream', { attributes: { jitter: 10 } })).toMatchObject({
        attributes: { latency: 50, jitter: 10 },
      });
      await faults.removeToxic('svc', 'rst');
      expect((await faults.getProxy('svc')).toxics.map((t) => t.name)).toEqual([
        'limit_data_upstream',
        'latency_downstream',
      ]);
      await faults.reset();
      expect((await faults.getProxy('svc')).toxics).toEqual([]);
    });

    it('disables and re-enables a proxy on the same address', async () => {
      const proxy = await faults.createProxy('flaky', upstream.address);
      expect((await faults.setEnabled('flaky', false)).enabled).toBe(false);
      await expect(connectRecorded(proxy.listen)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(await faults.setEnabled('flaky', true)).toEqual(proxy);
      (await connectRecorded(proxy.listen)).destroy();
    });

    it('says which operation failed', async () => {
      await expect(faults.addToxic('missing', { type: 'timeout', attributes: { timeout: 1 } })).rejects.toThrow(
        FaultControlError,
      );
      await expect(faults.createProxy('svc', upstream.address)).rejects.toThrow(/^create proxy svc: .*409/);
    });

    it("reset() cleans the proxies it created and leaves everyone else's as they were", async () => {
      await callApi(toxiproxy.url, 'POST', '/proxies', {
        name: 'stranger',
        listen: '127.0.0.1:0',
        upstream: upstream.address,
      });
      await callApi(toxiproxy.url, 'POST', '/proxies/stranger/toxics', {
        name: 'theirs',
        type: 'latency',
        attributes: { latency: 500 },
      });
      await callApi(toxiproxy.url, 'POST', '/proxies', {
        name: 'stranger-off',
        listen: '127.0.0.1:0',
        upstream: upstream.address,
        enabled: false,
      });
      const own = FaultControl.over({
        kind: 'external',
        url: toxiproxy.url,
        version: toxiproxy.version,
        detail: '',
        passedOver: [],
        close: async () => {},
      });
      try {
        await own.createProxy('own', upstream.address);
        await own.addToxic('own', { type: 'latency', attributes: { latency: 50 } });
        await own.addToxic('own', { type: 'timeout', stream: 'upstream', attributes: { timeout: 10 } });
        await own.setEnabled('own', false);
        await own.reset();
        expect(await own.getProxy('own')).toMatchObject({ enabled: true, toxics: [] });
        expect((await own.getProxy('stranger')).toxics.map((t) => t.name)).toEqual(['theirs']);
        expect((await own.getProxy('stranger-off')).enabled).toBe(false);
      } finally {
        await own.close();
        await callApi(toxiproxy.url, 'DELETE', '/proxies/stranger');
        await callApi(toxiproxy.url, 'DELETE', '/proxies/stranger-off');
      }
    });

    it(
      'a taken name is a ProxyExistsError, ' +
        "and createUniqueProxy steps around it without touching the owner's proxy",
      async () => {
        await callApi(toxiproxy.url, 'POST', '/proxies', {
          name: 'a2a-rig-taken',
          listen: '127.0.0.1:0',
          upstream: upstream.address,
        });
        const own = FaultControl.over({
          kind: 'external',
          url: toxiproxy.url,
          version: toxiproxy.version,
          detail: '',
          passedOver: [],
          close: async () => {},
        });
        try {
          await expect(own.createProxy('a2a-rig-taken', upstream.address)).rejects.toThrow(ProxyExistsError);
          const proxy = await own.createUniqueProxy('a2a-rig-taken', upstream.address);
          expect(proxy.name).toMatch(/^a2a-rig-taken-[0-9a-f]{6}$/);
          await own.close();
          const names = Object.keys((await callApi(toxiproxy.url, 'GET', '/proxies')).json);
          expect(names).toContain('a2a-rig-taken');
          expect(names).not.toContain(proxy.name);
        } finally {
          await callApi(toxiproxy.url, 'DELETE', '/proxies/a2a-rig-taken');
        }
      },
    );

    it('close() deletes the proxies it created and nothing else', async () => {
      await callApi(toxiproxy.url, 'POST', '/proxies', {
        name: 'someone-elses',
        listen: '127.0.0.1:0',
        upstream: upstream.address,
      });
      const own = FaultControl.over({
        kind: 'external',
        url: toxiproxy.url,
        version: toxiproxy.version,
        detail: '',
        passedOver: [],
        close: async () => {},
      });
      await own.createProxy('mine', upstream.address);
      await own.close();
      const names = Object.keys((await callApi(toxiproxy.url, 'GET', '/proxies')).json);
      expect(names).toContain('someone-elses');
      expect(names).not.toContain('mine');
    });
  });
});

describe('FaultControl.open', () => {
  it('opens the embedded backend on request and stops it on close', async () => {
    const faults = await FaultControl.open({ kind: 'embedded' });
    expect(faults.record).toMatchObject({
      kind: 'embedded',
      detail: 'in-process',
      version: '2.12.0',
    });
    const { url } = faults.record;
    await faults.close();
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  });
});

describe('FaultControl against a server that refuses every name', () => {
  it('gives up after a few fresh names with one line naming the server and the names tried', async () => {
    const posts: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (part) => (body += part));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/proxies') posts.push(JSON.parse(body).name);
        res.writeHead(409, { 'Content-Type': 'application/json' }).end('{"error":"proxy already exists","status":409}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const faults = FaultControl.over({
      kind: 'external',
      url,
      version: '2.12.0',
      detail: url,
      passedOver: [],
      close: async () => {},
    });
    try {
      const refused = faults.createUniqueProxy('a2a-rig-x', '127.0.0.1:9');
      await expect(refused).rejects.toThrow(UserError);
      await expect(refused).rejects.toThrow(
        new RegExp(`^Toxiproxy at ${url} refused every proxy name tried \\(a2a-rig-x, a2a-rig-x-[0-9a-f]{6},`),
      );
      expect(posts).toHaveLength(4);
      expect(new Set(posts).size).toBe(4);
    } finally {
      await faults.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('FaultControl.close', () => {
  it('cleans up once however often and however concurrently it is called', async () => {
    const server = await startEmbeddedToxiproxy();
    const upstream = await startRecordingServer();
    let backendCloses = 0;
    const faults = FaultControl.over({
      kind: 'embedded',
      url: server.url,
      version: server.version,
      detail: 'in-process',
      passedOver: [],
      close: async () => void backendCloses++,
    });
    try {
      await faults.createProxy('once', upstream.address);
      await Promise.all([faults.close(), faults.close()]);
      await faults.close();
      expect(backendCloses).toBe(1);
      expect((await callApi(server.url, 'GET', '/proxies')).json).toEqual({});
    } finally {
      await upstream.close();
      await server.close();
    }
  });
});
