// The Toxiproxy HTTP API contract, asserted alike on the embedded proxy and the real server:
// status codes, JSON shapes, defaults and error bodies, the stock toxiproxy-node-client driving
// each. The request-by-request transcript compared between them: proxy.apiTranscript.test.ts.
import { Toxiproxy } from 'toxiproxy-node-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from './support/tcpPeers.ts';
import { backendCases, callApi, type ApiReply, type ToxiproxyUnderTest } from './support/proxyBackends.ts';

describe.each(backendCases())('$name Toxiproxy: HTTP API', ({ name, skipReason, start }) => {
  let toxiproxy: ToxiproxyUnderTest;
  let upstream: RecordingServer;
  const call = (method: string, path: string, body?: unknown) => callApi(toxiproxy.url, method, path, body);

  beforeAll(async () => {
    if (skipReason) return;
    toxiproxy = await start();
    upstream = await startRecordingServer();
  });
  afterAll(async () => {
    await upstream?.close();
    await toxiproxy?.close();
  });
  afterEach(async () => {
    if (skipReason) return;
    for (const proxyName of Object.keys((await call('GET', '/proxies')).json))
      await call('DELETE', `/proxies/${proxyName}`);
  });

  const error = (reply: ApiReply) => ({ status: reply.status, contentType: reply.contentType, body: reply.text });

  describe.skipIf(skipReason !== undefined)('', () => {
    it('creates, lists, shows and deletes a proxy with the documented codes and shapes', async () => {
      const created = await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: upstream.address });
      expect(created.status).toBe(201);
      expect(created.contentType).toBe('application/json');
      expect(created.json).toEqual({
        name: 'p',
        listen: expect.stringMatching(/^127\.0\.0\.1:[1-9]\d*$/),
        upstream: upstream.address,
        enabled: true,
        Logger: {},
        toxics: [],
      });
      expect((await call('GET', '/proxies')).json).toEqual({ p: created.json });
      expect((await call('GET', '/proxies/p')).json).toEqual(created.json);
      expect(
        error(await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: upstream.address })),
      ).toEqual({
        status: 409,
        contentType: 'text/plain; charset=utf-8',
        body: '{"error":"proxy already exists","status":409}\n',
      });
      const deleted = await call('DELETE', '/proxies/p');
      expect([deleted.status, deleted.text]).toEqual([204, '']);
      expect(error(await call('GET', '/proxies/p'))).toMatchObject({
        status: 404,
        body: '{"error":"proxy not found","status":404}\n',
      });
      expect((await call('DELETE', '/proxies/p')).status).toBe(404);
    });

    it('answers 400 for missing fields and unreadable bodies', async () => {
      expect((await call('POST', '/proxies', { name: 'p' })).text).toBe(
        '{"error":"missing required field: upstream","status":400}\n',
      );
      expect((await call('POST', '/proxies', { upstream: upstream.address })).text).toBe(
        '{"error":"missing required field: name","status":400}\n',
      );
      expect((await call('POST', '/proxies', '')).text).toBe('{"error":"bad request body: EOF","status":400}\n');
      const garbled = await call('POST', '/proxies', '{bad');
      expect(garbled.status).toBe(400);
      expect(garbled.json).toEqual({ error: expect.stringMatching(/^bad request body: /), status: 400 });
      expect((await call('POST', '/proxies', { name: 'p', upstream: 'x', enabled: 'yes' })).text).toBe(
        '{"error":"bad request body: json: ' +
          'cannot unmarshal string into Go struct field Proxy.enabled of type bool","status":400}\n',
      );
    });

    it('creates toxics with Toxiproxy defaults and answers 200, not 201', async () => {
      await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: upstream.address });
      const latency = await call('POST', '/proxies/p/toxics', { type: 'latency', attributes: { latency: 100 } });
      expect(latency.status).toBe(200);
      expect(latency.text).toBe(
        JSON.stringify({
          attributes: { latency: 100, jitter: 0 },
          name: 'latency_downstream',
          type: 'latency',
          stream: 'downstream',
          toxicity: 1,
        }),
      );
      const defaults = {
        bandwidth: { rate: 0 },
        slow_close: { delay: 0 },
        timeout: { timeout: 0 },
        reset_peer: { timeout: 0 },
        slicer: { average_size: 0, size_variation: 0, delay: 0 },
        limit_data: { bytes: 0 },
      };
      for (const [type, attributes] of Object.entries(defaults)) {
        const reply = await call('POST', '/proxies/p/toxics', { type, stream: 'upstream' });
        expect(reply.json).toEqual({ attributes, name: `${type}_upstream`, type, stream: 'upstream', toxicity: 1 });
      }
      const odd = await call('POST', '/proxies/p/toxics', {
        type: 'latency',
        stream: 'UPSTREAM',
        toxicity: 0.123456789,
      });
      expect(odd.text).toBe(
        JSON.stringify({
          attributes: { latency: 0, jitter: 0 },
          name: 'latency_UPSTREAM',
          type: 'latency',
          stream: 'UPSTREAM',
          toxicity: 0.12345679,
        }),
      );
      const listed = (await call('GET', '/proxies/p/toxics')).json as { name: string }[];
      expect(listed.map((t) => t.name)).toEqual([
        ...Object.keys(defaults).map((t) => `${t}_upstream`),
        'latency_UPSTREAM',
        'latency_downstream',
      ]);
      expect((await call('GET', '/proxies/p')).json.toxics).toEqual(listed);
    });

    it('rejects bad toxics with 409 and 400, in the real server’s order of checks', async () => {
      await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: upstream.address });
      await call('POST', '/proxies/p/toxics', { type: 'latency' });
      expect(
        error(await call('POST', '/proxies/p/toxics', { type: 'latency', attributes: { latency: 'x' } })),
      ).toMatchObject({
        status: 409,
        body: '{"error":"toxic already exists","status":409}\n',
      });
      expect((await call('POST', '/proxies/p/toxics', { type: 'nope' })).text).toBe(
        '{"error":"invalid toxic type","status":400}\n',
      );
      expect((await call('POST', '/proxies/p/toxics', { type: 'nope', stream: 'sideways' })).text).toBe(
        '{"error":"stream was invalid, can be either upstream or downstream","status":400}\n',
      );
      expect((await call('POST', '/proxies/p/toxics', { type: 'bandwidth', attributes: { rate: 1.5 } })).text).toBe(
        '{"error":"bad request body: json: cannot unmarshal number 1.5 into Go ' +
          'struct field BandwidthToxic.attributes.rate of type int64","status":400}\n',
      );
      expect((await call('POST', '/proxies/nope/toxics', { type: 'latency' })).status).toBe(404);
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        expect((await call(method, '/proxies/p/toxics/nope', method === 'PATCH' ? {} : undefined)).text).toBe(
          '{"error":"toxic not found","status":404}\n',
        );
      }
    });

    it('PATCH merges toxic attributes and keeps toxicity unless given; DELETE answers 204', async () => {
      await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: upstream.address });
      await call('POST', '/proxies/p/toxics', { type: 'latency', attributes: { latency: 100 } });
      expect(
        (await call('PATCH', '/proxies/p/toxics/latency_downstream', { attributes: { jitter: 5 } })).json,
      ).toMatchObject({
        attributes: { latency: 100, jitter: 5 },
        toxicity: 1,
      });
      expect((await call('POST', '/proxies/p/toxics/latency_downstream', { toxicity: 0.3 })).json).toMatchObject({
        attributes: { latency: 100, jitter: 5 },
        toxicity: 0.3,
      });
      const deleted = await call('DELETE', '/proxies/p/toxics/latency_downstream');
      expect([deleted.status, deleted.text]).toEqual([204, '']);
      expect((await call('GET', '/proxies/p/toxics')).json).toEqual([]);
    });

    it('PATCH and POST update a proxy: disable keeps the address, a new listen restarts it', async () => {
      const created = (await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: upstream.address }))
        .json;
      const disabled = await call('PATCH', '/proxies/p', { enabled: false });
      expect(disabled.json).toEqual({ ...created, enabled: false });
      const moved = await call('POST', '/proxies/p', { listen: '127.0.0.1:0' });
      expect(moved.json).toEqual({ ...created, listen: '127.0.0.1:0', enabled: false });
      const enabled = await call('PATCH', '/proxies/p', { enabled: true });
      expect(enabled.json.listen).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
      expect(enabled.json.enabled).toBe(true);
      expect((await call('PATCH', '/proxies/nope', { enabled: true })).status).toBe(404);
    });

    it(
      'populate answers 201 {proxies}, keeps unchanged proxies, ' + 'and reports a bad entry with proxies:null',
      async () => {
        const body = [
          { name: 'a', listen: '127.0.0.1:0', upstream: upstream.address },
          { name: 'b', listen: '127.0.0.1:0', upstream: upstream.address, enabled: false },
        ];
        const first = await call('POST', '/populate', body);
        expect(first.status).toBe(201);
        expect(first.json.proxies.map((p: { name: string; enabled: boolean }) => [p.name, p.enabled])).toEqual([
          ['a', true],
          ['b', false],
        ]);
        const a = first.json.proxies[0];
        const again = await call('POST', '/populate', [{ name: 'a', listen: a.listen, upstream: upstream.address }]);
        expect(again.json.proxies).toEqual([a]);
        const invalid = await call('POST', '/populate', [
          { name: 'c', upstream: 'x' },
          { name: '', upstream: 'x' },
        ]);
        expect([invalid.status, invalid.contentType, invalid.text]).toEqual([
          400,
          'application/json',
          '{"error":"missing required field: name at proxy 2","status":400,"proxies":null}',
        ]);
        expect((await call('GET', '/proxies/c')).status).toBe(404);
        expect((await call('POST', '/populate', [])).text).toBe('{"proxies":null}');
      },
    );

    it('reset answers 204, enables every proxy and removes every toxic', async () => {
      await call('POST', '/proxies', { name: 'p', listen: '127.0.0.1:0', upstream: upstream.address, enabled: false });
      await call('POST', '/proxies', { name: 'q', listen: '127.0.0.1:0', upstream: upstream.address });
      await call('POST', '/proxies/q/toxics', { type: 'timeout', attributes: { timeout: 10 } });
      const reset = await call('POST', '/reset');
      expect([reset.status, reset.text]).toEqual([204, '']);
      const all = (await call('GET', '/proxies')).json;
      expect([all.p.enabled, all.p.toxics, all.q.enabled, all.q.toxics]).toEqual([true, [], true, []]);
    });

    it('answers /version, 404 for unknown paths, 405 for unknown methods, 403 for browsers', async () => {
      // Byte for byte what the Go server answers: clients parse the version (Ruby's refuses a suffix).
      const version = await call('GET', '/version');
      expect([version.status, version.contentType, version.text]).toEqual([
        200,
        'application/json;charset=utf-8',
        '{"version": "2.12.0"}\n',
      ]);
      const server = (await fetch(`${toxiproxy.url}/version`)).headers.get('Server');
      expect(server).toBe(name === 'embedded' ? 'a2a-rig embedded Toxiproxy' : null);
      expect(error(await call('GET', '/nothing'))).toEqual({
        status: 404,
        contentType: 'text/plain; charset=utf-8',
        body: '404 page not found\n',
      });
      expect((await call('PUT', '/proxies')).status).toBe(405);
      const browser = await fetch(`${toxiproxy.url}/version`, { headers: { 'User-Agent': 'Mozilla/5.0' } });
      expect([browser.status, await browser.text()]).toEqual([403, 'User agent not allowed\n']);
    });

    it('is driven by the stock toxiproxy-node-client', async () => {
      const client = new Toxiproxy(toxiproxy.url);
      expect(JSON.parse(await client.getVersion())).toEqual({ version: toxiproxy.version });
      const proxy = await client.createProxy({ name: 'n', listen: '127.0.0.1:0', upstream: upstream.address });
      expect(proxy.listen).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
      const toxic = await proxy.addToxic({
        name: 'slow',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 10, jitter: 1 },
      });
      expect(toxic.toJson()).toEqual({
        name: 'slow',
        type: 'latency',
        stream: 'downstream',
        toxicity: 1,
        attributes: { latency: 10, jitter: 1 },
      });
      const limit = await proxy.addToxic<{ bytes: number }>({
        name: 'cap',
        type: 'limit_data',
        stream: 'upstream',
        toxicity: 0.5,
        attributes: { bytes: 10 },
      });
      expect(limit.attributes).toEqual({ bytes: 10 });
      expect((await proxy.getToxic('slow')).attributes).toEqual({ latency: 10, jitter: 1 });
      expect((await toxic.update({ ...toxic.toJson(), attributes: { latency: 20, jitter: 0 } })).attributes).toEqual({
        latency: 20,
        jitter: 0,
      });
      expect((await proxy.update({ enabled: false, listen: proxy.listen, upstream: proxy.upstream })).enabled).toBe(
        false,
      );
      expect(Object.keys(await client.getAll())).toEqual(['n']);
      const populated = await client.populate([{ name: 'm', listen: '127.0.0.1:0', upstream: upstream.address }]);
      expect(populated.m?.enabled).toBe(true);
      await client.reset();
      expect((await client.get('n')).enabled).toBe(true);
      await toxic.remove().catch(() => {}); // already gone after reset: the client reports the 404 as an error
      await proxy.remove();
      await expect(client.get('n')).rejects.toThrow(/404/);
    });
  });
});
