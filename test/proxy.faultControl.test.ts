// The engine-facing fault API over toxiproxy-node-client, on each backend: proxies in front of an
// upstream, toxics with typed attributes (reset_peer and limit_data included), enable/disable,
// reset, the backend record, and that close() leaves no proxy behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultControl, FaultControlError } from '../rig/proxy/faultControl.ts';
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
    faults = FaultControl.over({ kind: name === 'real' ? 'spawned' : 'embedded', url: toxiproxy.url, version: toxiproxy.version, detail: name, passedOver: [], close: () => toxiproxy.close() });
  });
  afterAll(async () => {
    await upstream?.close();
    await faults?.close();
  });

  describe.skipIf(skipReason !== undefined)('', () => {
    it('records which backend it drives', () => {
      expect(faults.record).toMatchObject({ kind: name === 'real' ? 'spawned' : 'embedded', version: toxiproxy.version, url: toxiproxy.url });
    });

    it('puts a proxy in front of an upstream, adds, updates and removes toxics', async () => {
      const proxy = await faults.createProxy('svc', upstream.address);
      expect(proxy).toEqual({ name: 'svc', listen: expect.stringMatching(/^127\.0\.0\.1:[1-9]\d*$/), upstream: upstream.address, enabled: true });
      expect(await faults.addToxic('svc', { type: 'latency', attributes: { latency: 50 } })).toEqual({
        name: 'latency_downstream',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 50, jitter: 0 },
      });
      expect(await faults.addToxic('svc', { type: 'limit_data', stream: 'upstream', toxicity: 0.5, attributes: { bytes: 100 } })).toMatchObject({
        name: 'limit_data_upstream',
        toxicity: 0.5,
        attributes: { bytes: 100 },
      });
      await faults.addToxic('svc', { type: 'reset_peer', name: 'rst', attributes: { timeout: 5 } });
      expect(await faults.updateToxic('svc', 'latency_downstream', { attributes: { jitter: 10 } })).toMatchObject({ attributes: { latency: 50, jitter: 10 } });
      await faults.removeToxic('svc', 'rst');
      expect((await faults.getProxy('svc')).toxics.map((t) => t.name)).toEqual(['limit_data_upstream', 'latency_downstream']);
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
      await expect(faults.addToxic('missing', { type: 'timeout', attributes: { timeout: 1 } })).rejects.toThrow(FaultControlError);
      await expect(faults.createProxy('svc', upstream.address)).rejects.toThrow(/^create proxy svc: .*409/);
    });

    it('close() deletes the proxies it created and nothing else', async () => {
      await callApi(toxiproxy.url, 'POST', '/proxies', { name: 'someone-elses', listen: '127.0.0.1:0', upstream: upstream.address });
      const own = FaultControl.over({ kind: 'external', url: toxiproxy.url, version: toxiproxy.version, detail: '', passedOver: [], close: async () => {} });
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
    expect(faults.record).toMatchObject({ kind: 'embedded', detail: 'in-process', version: expect.stringContaining('a2a-rig') });
    const { url } = faults.record;
    await faults.close();
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  });
});
