// `--header`, `--header-file`, `--ca-cert`, `--insecure` and `--activate` are read and checked before
// anything is sent: a value names environment variables as $NAME or ${NAME} ($$ is a $), an unset
// variable, a malformed line or a header the rig sets itself is a usage error that names the header
// but never its value, and the command line exits 2 with nothing sent to the agent.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentialsFromFlags, expandEnv } from '../rig/credentialOptions.ts';
import { redactCredentials, redactDeep } from '../rig/client/credentials.ts';
import { UserError } from '../rig/protocol/userError.ts';
import { runRig } from './support/rigCli.ts';

const ENV = { TOKEN: 'tok-from-env', EMPTY: '' };
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'a2a-rig-cred-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('no usage error');
}

describe('header values from the environment', () => {
  it('expands $NAME and ${NAME}, keeps $$ as $, refuses an unset variable by name', () => {
    expect(expandEnv('Bearer $TOKEN', ENV, 'w')).toBe('Bearer tok-from-env');
    expect(expandEnv('a${TOKEN}b $$5', ENV, 'w')).toBe('atok-from-envb $5');
    expect(expandEnv('$EMPTY', ENV, 'w')).toBe('');
    expect(refusal(() => expandEnv('Bearer $NOPE', ENV, '--header #1 (Authorization)'))).toBe(
      '--header #1 (Authorization): the environment variable NOPE is not set (write $$ for a literal $)',
    );
  });
});

describe('credentialsFromFlags', () => {
  it('reads the header file (comments, blank lines) first, then each --header', () => {
    const file = join(dir, 'headers');
    writeFileSync(file, '# the tenant\nX-Tenant: t-1\n\n  Authorization: Bearer ${TOKEN}  \n');
    const c = credentialsFromFlags({ headerFile: file, header: ['X-Trace: on'] }, ENV);
    expect(c.headers).toEqual([
      ['X-Tenant', 't-1'],
      ['Authorization', 'Bearer tok-from-env'],
      ['X-Trace', 'on'],
    ]);
  });

  it('refuses headers the rig sets, malformed lines and bad files, naming no value', () => {
    const rigs = ['A2A-Extensions', 'a2a-version', 'Content-Type', 'Host', 'Content-Length', 'X-A2A-Extensions'];
    for (const name of [...rigs, 'Accept', 'Connection', 'Upgrade', 'Sec-WebSocket-Key'])
      expect(refusal(() => credentialsFromFlags({ header: [`${name}: x`] }, ENV))).toContain(
        `${name} is set by the rig itself`,
      );
    const noName = refusal(() => credentialsFromFlags({ header: ['Bearer hunter2-secret'] }, ENV));
    expect(noName).toBe(`--header #1: a header is written 'Name: value', got no "Name:"`);
    const badValue = refusal(() => credentialsFromFlags({ header: ['X-Key: a\u0000hunter2'] }, ENV));
    expect(badValue).toContain('the value of X-Key must be visible ASCII');
    expect(badValue).not.toContain('hunter2');
    const file = join(dir, 'bad');
    writeFileSync(file, 'X-Ok: 1\nnot a header line\n');
    expect(refusal(() => credentialsFromFlags({ headerFile: file }, ENV))).toContain(`--header-file ${file} line 2`);
    expect(refusal(() => credentialsFromFlags({ headerFile: join(dir, 'none') }, ENV))).toContain('ENOENT');
    expect(refusal(() => credentialsFromFlags({ caCert: file }, ENV))).toContain('not a PEM certificate');
    expect(refusal(() => credentialsFromFlags({ caCert: file, insecure: true }, ENV))).toContain('contradict');
  });

  it('redaction hides the whole value and the token after its scheme', () => {
    const c = credentialsFromFlags({ header: ['Authorization: Bearer $TOKEN'] }, ENV);
    expect(redactCredentials('got "Bearer tok-from-env" and tok-from-env', c)).toBe('got "[redacted]" and [redacted]');
  });
});

describe('the command line refuses bad credentials before sending anything', () => {
  let server: Server;
  let url = '';
  let requests = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests++;
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it.each([
    [['--header', 'Authorization: Bearer $A2A_RIG_TEST_UNSET'], 'A2A_RIG_TEST_UNSET is not set'],
    [['--header', 'A2A-Extensions: urn:x'], 'A2A-Extensions is set by the rig itself'],
    [['--activate', 'not a uri'], `--activate takes an extension's URI`],
  ])('conform %j exits 2: %s', async (args, message) => {
    const run = await runRig(['conform', '--target', url, '--toxiproxy', 'none', '--out', join(dir, 'o'), ...args]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(message);
    expect(requests).toBe(0);
  });
});

describe('redactDeep', () => {
  it("redacts every string of a run's result but a histogram's base64 (a short value may match in it)", () => {
    const c = credentialsFromFlags({ header: ['X-Pin: AAAA'] }, ENV);
    const result = { reason: 'pin AAAA refused', metrics: { m: { p50: 1, hdr: 'HISTFAAAAx' } }, list: ['AAAA'] };
    expect(redactDeep(result, c)).toEqual({
      reason: 'pin [redacted] refused',
      metrics: { m: { p50: 1, hdr: 'HISTFAAAAx' } },
      list: ['[redacted]'],
    });
  });
});
