// `a2a-rig proxy` as a user runs it: one JSON line once listening, driven by the stock
// toxiproxy-node-client and by plain HTTP, exit 0 on SIGTERM, exit 2 with one line on bad usage.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Toxiproxy } from 'toxiproxy-node-client';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from './support/proxyBackends.ts';
import { connectRecorded, startRecordingServer } from './support/tcpPeers.ts';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function run(args: string[]): { child: ChildProcess; exited: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [`${repoRoot}bin/a2a-rig.js`, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (part: Buffer) => (stderr += part.toString('utf8')));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  return { child, exited };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(ms).then(() => {
      throw new Error(`${what} did not happen within ${ms} ms`);
    }),
  ]);
}

describe('a2a-rig proxy', () => {
  it('prints where its API is, serves Toxiproxy clients, and exits 0 on SIGTERM', async () => {
    const { child, exited } = run(['proxy', '--api-port', '0']);
    const line = await within(
      new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
      15_000,
      'the JSON line',
    );
    const announced = JSON.parse(line) as { api: string; pid: number };
    expect(announced).toMatchObject({ api: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), pid: child.pid });

    const upstream = await startRecordingServer();
    try {
      const client = new Toxiproxy(announced.api);
      const proxy = await client.createProxy({ name: 'echo', listen: '127.0.0.1:0', upstream: upstream.address });
      await proxy.addToxic({
        name: 'cap',
        type: 'limit_data',
        stream: 'downstream',
        toxicity: 1,
        attributes: { bytes: 3 },
      });
      const socket = await connectRecorded(proxy.listen);
      socket.socket.write('hello');
      await socket.untilFinished();
      expect(socket.text).toBe('hel');
      const listed = await (await fetch(`${announced.api}/proxies`)).json();
      expect(Object.keys(listed as object)).toEqual(['echo']);
    } finally {
      await upstream.close();
    }

    child.kill('SIGTERM');
    expect((await within(exited, 10_000, 'exit after SIGTERM')).code).toBe(0);
  });

  it('exits 2 with one line when the API port is taken or invalid', async () => {
    const taken = await startRecordingServer();
    try {
      const busy = await within(run(['proxy', '--api-port', String(taken.port)]).exited, 15_000, 'exit');
      expect(busy.code).toBe(2);
      expect(busy.stderr).toMatch(
        /^a2a-rig: cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\); pick another --host\/--api-port\n$/,
      );
    } finally {
      await taken.close();
    }
    const invalid = await within(run(['proxy', '--api-port', 'x']).exited, 15_000, 'exit');
    expect(invalid.code).toBe(2);
    expect(invalid.stderr.trim().split('\n')[0]).toContain('--api-port must be an integer');
  });
});
