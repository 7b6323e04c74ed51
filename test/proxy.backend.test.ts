// --toxiproxy auto|URL|embedded: auto's order (external URL, then a toxiproxy-server binary, then
// embedded), what each choice records, user errors, and that a spawned server is always reaped —
// by close() and when its owner is SIGKILLed. Without the Go binary a shim that runs
// `a2a-rig proxy` stands in for it, so these run on a fresh clone too.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFaultBackend, parseToxiproxyChoice } from '../rig/proxy/backend.ts';
import { startEmbeddedToxiproxy } from '../rig/proxy/embedded/embeddedToxiproxy.ts';
import { UserError } from '../rig/protocol/userError.ts';
import { realToxiproxyBinary, repoRoot } from './support/proxyBackends.ts';
import { freePort, processAlive } from './support/localHost.ts';

let scratch: string;
let serverBinary: string;
let closedUrl: string;

async function untilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!processAlive(pid)) return true;
    await sleep(50);
  }
  return !processAlive(pid);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'a2a-rig-backend-'));
  const real = realToxiproxyBinary().path;
  if (real) {
    serverBinary = real;
  } else {
    // Same flags as toxiproxy-server (-host H -port P), served by the embedded proxy.
    serverBinary = join(scratch, 'toxiproxy-server');
    writeFileSync(
      serverBinary,
      `#!/bin/sh\nexec "${process.execPath}" "${repoRoot}bin/a2a-rig.js" proxy --host "$2" --api-port "$4"\n`,
    );
    chmodSync(serverBinary, 0o755);
  }
  // A port below the ephemeral range: a released listen(0) port can become the connecting socket's
  // own source port, and loopback then connects to itself (TCP simultaneous open) instead of refusing.
  closedUrl = `http://127.0.0.1:${await freePort()}`;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('--toxiproxy parsing', () => {
  it('accepts auto, embedded and http(s) URLs, and says what is wrong otherwise', () => {
    expect(parseToxiproxyChoice('auto')).toEqual({ kind: 'auto' });
    expect(parseToxiproxyChoice('embedded')).toEqual({ kind: 'embedded' });
    expect(parseToxiproxyChoice('http://127.0.0.1:8474/')).toEqual({ kind: 'url', url: 'http://127.0.0.1:8474' });
    expect(() => parseToxiproxyChoice('docker')).toThrow(UserError);
    expect(() => parseToxiproxyChoice('ftp://x')).toThrow(/http\(s\)/);
  });
});

describe('auto selection', () => {
  it('uses an external Toxiproxy when TOXIPROXY_URL answers', async () => {
    const external = await startEmbeddedToxiproxy();
    try {
      const backend = await openFaultBackend(
        { kind: 'auto' },
        { env: { TOXIPROXY_URL: external.url, TOXIPROXY_SERVER: serverBinary } },
      );
      expect([backend.kind, backend.url, backend.version]).toEqual(['external', external.url, external.version]);
      await backend.close();
      expect((await fetch(`${external.url}/version`)).ok).toBe(true); // not ours to stop
    } finally {
      await external.close();
    }
  });

  it('spawns TOXIPROXY_SERVER when no external one answers, and reaps it on close', async () => {
    const backend = await openFaultBackend(
      { kind: 'auto' },
      { env: { TOXIPROXY_URL: closedUrl, TOXIPROXY_SERVER: serverBinary } },
    );
    try {
      expect(backend.kind).toBe('spawned');
      expect(backend.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(backend.passedOver).toEqual([expect.stringContaining(`no Toxiproxy at ${closedUrl}`)]);
      expect((await fetch(`${backend.url}/version`)).ok).toBe(true);
    } finally {
      await backend.close();
    }
    const pid = Number(/pid (\d+)/.exec(backend.detail)![1]);
    expect(await untilGone(pid, 5_000)).toBe(true);
    await expect(fetch(`${backend.url}/version`)).rejects.toThrow();
  });

  it('finds toxiproxy-server on PATH', async () => {
    const dir = join(scratch, 'path');
    mkdirSync(dir);
    symlinkSync(serverBinary, join(dir, 'toxiproxy-server'));
    const backend = await openFaultBackend({ kind: 'auto' }, { env: { TOXIPROXY_URL: closedUrl, PATH: dir } });
    await backend.close();
    expect(backend.kind).toBe('spawned');
    expect(backend.detail).toContain(join(dir, 'toxiproxy-server'));
  });

  it('passes over a binary that exits at once, without waiting out the readiness bound', async () => {
    const started = performance.now();
    const backend = await openFaultBackend(
      { kind: 'auto' },
      { env: { TOXIPROXY_URL: closedUrl, TOXIPROXY_SERVER: '/bin/false' } },
    );
    await backend.close();
    expect(backend.kind).toBe('embedded');
    expect(backend.passedOver[1]).toMatch(/^\/bin\/false did not answer/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('falls back to the embedded proxy and records why', async () => {
    const backend = await openFaultBackend(
      { kind: 'auto' },
      { env: { TOXIPROXY_URL: closedUrl, PATH: join(scratch, 'nowhere') } },
    );
    try {
      expect([backend.kind, backend.detail]).toEqual(['embedded', 'in-process']);
      expect(backend.passedOver).toEqual([
        expect.stringContaining('ECONNREFUSED'),
        expect.stringContaining('no toxiproxy-server is on PATH'),
      ]);
    } finally {
      await backend.close();
    }
  });
});

describe('auto and a Toxiproxy nobody named', () => {
  it('does not adopt a server answering /version at the well-known address unless TOXIPROXY_URL names it', async () => {
    // A stranger's process on the port docker-compose's Toxiproxy would have (8474 by default).
    const requests: string[] = [];
    const stranger = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"version":"2.12.0"}');
    });
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    const strangerUrl = `http://127.0.0.1:${(stranger.address() as { port: number }).port}`;
    try {
      const backend = await openFaultBackend(
        { kind: 'auto' },
        { env: { PATH: join(scratch, 'nowhere') }, defaultUrl: strangerUrl },
      );
      await backend.close();
      expect(backend.kind).toBe('embedded');
      expect(requests).toEqual([]);
      expect(backend.passedOver[0]).toBe(
        'no external Toxiproxy: TOXIPROXY_URL is unset, and auto never adopts an unnamed server (one ' +
          `at ${strangerUrl} is used only as --toxiproxy ${strangerUrl} or TOXIPROXY_URL=${strangerUrl})`,
      );

      const named = await openFaultBackend(
        { kind: 'auto' },
        { env: { TOXIPROXY_URL: strangerUrl, PATH: join(scratch, 'nowhere') }, defaultUrl: strangerUrl },
      );
      await named.close();
      expect([named.kind, named.url]).toEqual(['external', strangerUrl]);
    } finally {
      await new Promise((resolve) => stranger.close(resolve));
    }
  });

  it('spawns a binary before anything else when TOXIPROXY_URL is unset', async () => {
    const backend = await openFaultBackend(
      { kind: 'auto' },
      { env: { TOXIPROXY_SERVER: serverBinary }, defaultUrl: closedUrl },
    );
    try {
      expect(backend.kind).toBe('spawned');
      expect(backend.passedOver).toEqual([expect.stringContaining('TOXIPROXY_URL is unset')]);
    } finally {
      await backend.close();
    }
  });
});

describe('explicit choices', () => {
  it('spawn runs the binary it is given (how tests pin the real server)', async () => {
    const backend = await openFaultBackend({ kind: 'spawn', binary: serverBinary });
    try {
      expect([backend.kind, backend.passedOver]).toEqual(['spawned', []]);
      expect(backend.detail).toContain(serverBinary);
    } finally {
      await backend.close();
    }
  });

  it('embedded starts in-process on loopback', async () => {
    const backend = await openFaultBackend({ kind: 'embedded' });
    expect(backend.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await backend.close();
  });

  it('a URL nobody answers is a user error that says what to do', async () => {
    await expect(openFaultBackend({ kind: 'url', url: closedUrl })).rejects.toThrow(
      new UserError(`no Toxiproxy answers at ${closedUrl} (ECONNREFUSED); start one or use --toxiproxy embedded`),
    );
  });

  it('a TOXIPROXY_SERVER that is not executable is a user error', async () => {
    const notExecutable = join(scratch, 'not-executable');
    writeFileSync(notExecutable, 'x');
    await expect(
      openFaultBackend({ kind: 'auto' }, { env: { TOXIPROXY_URL: closedUrl, TOXIPROXY_SERVER: notExecutable } }),
    ).rejects.toThrow(UserError);
  });
});

describe('reaping', () => {
  it('a spawned server dies with its owner, even when the owner is SIGKILLed', async () => {
    const owner = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'test/support/spawnedBackendOwner.ts'), serverBinary],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const line = await Promise.race([
        new Promise<string>((resolve) => createInterface({ input: owner.stdout }).once('line', resolve)),
        sleep(20_000).then(() => {
          throw new Error('the owner did not report a spawned server within 20 s');
        }),
      ]);
      const { serverPid } = JSON.parse(line) as { serverPid: number };
      expect(processAlive(serverPid)).toBe(true);
      owner.kill('SIGKILL');
      expect(await untilGone(serverPid, 10_000)).toBe(true);
    } finally {
      owner.kill('SIGKILL');
    }
  });
});
