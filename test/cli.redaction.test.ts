// Header values are secrets. An agent that echoes the caller's credentials in its error messages
// (which scenarios quote in check details and reasons) must not get them into results.json,
// report.html, junit.xml, summary.md, the progress lines or the terminal summary: every file of the
// results directory and all of stdout/stderr are searched for the values, and the echo is there,
// redacted.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import { runRig } from './support/rigCli.ts';

const TOKEN = 'tok-7f3a9c1e-never-shown';
const KEY = 'key-b41d-never-shown';

let dir: string;
let server: Server;
let url = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a2a-rig-redact-'));
  server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          name: 'echoing',
          description: 'x',
          version: '1',
          supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: { extensions: [{ uri: HITL_PROMPT_URI, params: {} }] },
        }),
      );
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      // A careless agent: its error quotes what the caller sent.
      const message = `no access for ${req.headers.authorization} with key ${req.headers['x-api-key']}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

describe('header values never leave the rig', () => {
  it('an agent echoing them: no file of the results and no output line holds them', async () => {
    const out = join(dir, 'run');
    const run = await runRig(
      [
        ...['run', 'agent-card', 'cf1', '--target', url, '--toxiproxy', 'none', '--out', out],
        ...['--header', 'Authorization: Bearer $SECRET_TOKEN', '--header', 'X-Api-Key: ${SECRET_KEY}'],
      ],
      60_000,
      { SECRET_TOKEN: TOKEN, SECRET_KEY: KEY },
    );
    expect(run.code, run.stderr).toBe(1);
    const files = readdirSync(out);
    expect(files).toEqual(expect.arrayContaining(['results.json', 'report.html', 'junit.xml', 'summary.md']));
    for (const name of files) {
      const text = readFileSync(join(out, name), 'utf8');
      expect(text, name).not.toContain(TOKEN);
      expect(text, name).not.toContain(KEY);
    }
    for (const text of [run.stdout, run.stderr]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(KEY);
    }
    // The echo reached the results, redacted: the test saw the path a secret would take.
    expect(readFileSync(join(out, 'results.json'), 'utf8')).toContain('no access for [redacted] with key [redacted]');
  });
});
