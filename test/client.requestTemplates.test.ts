// The transport's request templates and echo memo: a call reuses the head built for the last header
// lines, yet each call still carries its own headers, length and body; the echoed extensions read
// from a reply are reused only while the echo is the same, and never shared between replies.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EchoedExtensions } from '../rig/client/a2aHeaders.ts';
import type { Http1Pool } from '../rig/client/http1Pool.ts';
import { JsonRpcTransport } from '../rig/client/jsonRpcTransport.ts';
import { RpcEndpoint } from '../rig/client/rpcEndpoint.ts';

describe('RpcEndpoint', () => {
  const e = new RpcEndpoint(undefined as unknown as Http1Pool, '/rpc?x=1', '127.0.0.1:9', 'http://shown/');

  it('writes the same bytes as a request spelled out, for a POST and a GET', () => {
    const lines = 'a2a-version: 1.0\r\n';
    expect(e.request('POST', lines, '{"a":"é"}', 10)).toBe(
      'POST /rpc?x=1 HTTP/1.1\r\nhost: 127.0.0.1:9\r\naccept: application/json\r\na2a-version: 1.0\r\n' +
        'content-type: application/json\r\ncontent-length: 10\r\n\r\n{"a":"é"}',
    );
    expect(e.request('GET', 'x-y: z\r\n', undefined, 0)).toBe(
      'GET /rpc?x=1 HTTP/1.1\r\nhost: 127.0.0.1:9\r\naccept: application/json\r\nx-y: z\r\n\r\n',
    );
  });

  it('builds the head again when the header lines change, and back', () => {
    const a = e.request('POST', 'x-a: 1\r\n', '{}', 2);
    const b = e.request('POST', 'x-b: 2\r\n', '{}', 2);
    expect(a).toContain('\r\nx-a: 1\r\ncontent-type');
    expect(b).toContain('\r\nx-b: 2\r\ncontent-type');
    expect(b).not.toContain('x-a');
    expect(e.request('POST', 'x-a: 1\r\n', '{}', 2)).toBe(a);
  });

  it('names a call by the shown URL and the method', () => {
    expect(e.what('GetTask')).toBe('POST http://shown/ (GetTask)');
    expect(e.what('SendMessage')).toBe('POST http://shown/ (SendMessage)');
  });
});

describe('EchoedExtensions', () => {
  it('reads the echo again when it changes, and hands each reply its own list', () => {
    const echoes = new EchoedExtensions();
    const first = echoes.of({ 'a2a-extensions': 'urn:a, urn:b' }, '1.0');
    expect(first).toEqual(['urn:a', 'urn:b']);
    first.push('changed by a caller');
    const second = echoes.of({ 'a2a-extensions': 'urn:a, urn:b' }, '1.0');
    second.push('changed by another caller');
    expect(echoes.of({ 'a2a-extensions': 'urn:a, urn:b' }, '1.0')).toEqual(['urn:a', 'urn:b']);
    expect(echoes.of({ 'a2a-extensions': 'urn:c' }, '1.0')).toEqual(['urn:c']);
    expect(echoes.of({}, '1.0')).toEqual([]);
    const both = { 'a2a-extensions': 'urn:v1', 'x-a2a-extensions': 'urn:v03' };
    expect(echoes.of(both, '1.0')).toEqual(['urn:v1']);
    expect(echoes.of(both, '0.3')).toEqual(['urn:v03']);
    expect(echoes.of({ 'a2a-extensions': ['urn:d', 'urn:e'] }, '1.0')).toEqual(['urn:d', 'urn:e']);
    expect(echoes.of({ 'a2a-extensions': ['urn:f'] }, '1.0')).toEqual(['urn:f']);
  });
});

describe('a transport whose calls change their headers', () => {
  let server: Server;
  let url: string;
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({ headers: req.headers, body });
        const { id } = JSON.parse(body) as { id: number };
        res.writeHead(200, {
          'content-type': 'application/json',
          'a2a-extensions': String(req.headers['a2a-extensions']),
        });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rpc`;
  });

  afterAll(async () => {
    server.close();
    await once(server, 'close').catch(() => {});
  });

  it('sends each call its own extensions, token, length and body, and reads each echo', async () => {
    const transport = new JsonRpcTransport({ connections: 1 });
    try {
      const calls = [
        { extensions: ['urn:a'], text: 'plain' },
        { extensions: ['urn:b', 'urn:c'], text: 'ünïcödé', bearerToken: 'tok-1' },
        { extensions: ['urn:a'], text: 'plain again' },
      ];
      const echoed: string[][] = [];
      for (const c of calls) {
        const a2a = { generation: '1.0' as const, extensions: c.extensions, bearerToken: c.bearerToken };
        const reply = await transport.call(url, 'SendMessage', { text: c.text }, a2a);
        expect(reply.ok).toBe(true);
        echoed.push(reply.meta.echoedExtensions);
      }
      expect(seen.map((s) => s.headers['a2a-extensions'])).toEqual(['urn:a', 'urn:b, urn:c', 'urn:a']);
      expect(seen.map((s) => s.headers.authorization)).toEqual([undefined, 'Bearer tok-1', undefined]);
      expect(seen.map((s) => (JSON.parse(s.body) as { params: { text: string } }).params.text)).toEqual(
        calls.map((c) => c.text),
      );
      for (const s of seen) expect(Number(s.headers['content-length'])).toBe(Buffer.byteLength(s.body));
      expect(echoed).toEqual([['urn:a'], ['urn:b', 'urn:c'], ['urn:a']]);
    } finally {
      await transport.close();
    }
  });
});
