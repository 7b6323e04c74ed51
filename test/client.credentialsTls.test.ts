// An agent on https with a certificate from a private CA (made here with openssl): the rig refuses
// it by default, trusts it with the CA (`--ca-cert`, beside the system roots) on unary calls and
// SSE streams alike, and with `--insecure` verifies nothing and says so once on stderr.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, userMessage } from '../rig/client/index.ts';
import { runRig } from './support/rigCli.ts';
import { answerTaskNotFound } from './support/steeringCard.ts';

let dir: string;
let server: Server;
let url = '';

/** A CA and a certificate it signed for 127.0.0.1, both fresh in `dir`. */
function makeCertificates(): { caFile: string; key: Buffer; cert: Buffer } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  run(
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2'],
    ...['-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=a2a-rig test CA'],
  );
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    ...['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
    ...['-keyout', 'agent.key', '-out', 'agent.csr', '-subj', '/CN=127.0.0.1'],
  );
  run(
    ...['x509', '-req', '-in', 'agent.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial'],
    ...['-days', '2', '-out', 'agent.pem', '-extfile', 'ext.cnf'],
  );
  return {
    caFile: join(dir, 'ca.pem'),
    key: readFileSync(join(dir, 'agent.key')),
    cert: readFileSync(join(dir, 'agent.pem')),
  };
}

let caFile = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a2a-rig-tls-'));
  const made = makeCertificates();
  caFile = made.caFile;
  server = createServer({ key: made.key, cert: made.cert }, (req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          name: 'tls',
          description: 'x',
          version: '1',
          supportedInterfaces: [{ url: `${url}/`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: { streaming: true },
        }),
      );
    }
    answerTaskNotFound(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 30_000);
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  rmSync(dir, { recursive: true, force: true });
});

describe('a private CA', () => {
  it('without it the card cannot be read: the certificate is not trusted', async () => {
    await expect(A2AClient.open(url)).rejects.toThrow(/cannot read the agent card/);
  });

  it('with it (or --insecure) unary calls and streams get through', async () => {
    for (const credentials of [
      { headers: [], ca: readFileSync(caFile) },
      { headers: [], insecure: true },
    ]) {
      const client = await A2AClient.open(url, { credentials });
      try {
        const got = await client.getTask('t-1');
        expect(got.ok).toBe(false);
        const stream = await client.sendStream(userMessage({ text: 'hi' }));
        expect(stream.ok).toBe(false);
      } finally {
        await client.close();
      }
    }
  });

  it('the command line: --ca-cert passes agent-card; --insecure says once that nothing is verified', async () => {
    const args = ['run', 'agent-card', '--target', url, '--toxiproxy', 'none'];
    const trusted = await runRig([...args, '--ca-cert', caFile, '--out', join(dir, 'ca')]);
    expect(trusted.code, trusted.stderr).toBe(0);
    const insecure = await runRig([...args, '--insecure', '--out', join(dir, 'insecure')]);
    expect(insecure.code, insecure.stderr).toBe(0);
    expect(insecure.stderr.match(/--insecure: the agent's TLS certificate is not verified/g)).toHaveLength(1);
  });
});
