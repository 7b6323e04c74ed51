// A real `toxiproxy-server` run as our child on a free loopback port. It is started under a tiny
// sh watchdog that kills it when our end of its stdin closes, so it is reaped however this process
// ends: close(), process.exit, a crash, or SIGKILL.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createServer } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SpawnedToxiproxy {
  readonly url: string;
  readonly version: string;
  /** The toxiproxy-server process itself (not its watchdog). */
  readonly pid: number;
  close(): Promise<void>;
}

// sh runs the server in the background and waits for it, so a server that dies ends sh at once; a
// watcher subshell reads our pipe and kills the server when the pipe closes (our close(), or our
// death). Background lists get /dev/null as stdin, hence the pipe saved on fd 3.
const WATCHDOG = [
  'exec 3<&0',
  '"$0" "$@" </dev/null 3<&- 1>&2 &',
  'child=$!',
  'echo "$child"',
  '( read -r _ <&3; kill "$child" 2>/dev/null ) &',
  'watcher=$!',
  'exec 3<&-',
  'wait "$child"; status=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n');

const READY_TIMEOUT_MS = 10_000;
const EXIT_GRACE_MS = 3_000;

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function versionAt(url: string): Promise<string | undefined> {
  try {
    const response = await fetch(`${url}/version`, { signal: AbortSignal.timeout(1_000) });
    if (!response.ok) return undefined;
    const body = (await response.json()) as { version?: unknown };
    return typeof body.version === 'string' ? body.version : undefined;
  } catch {
    return undefined;
  }
}

type Watchdog = ChildProcessByStdio<Writable, Readable, Readable>;

function exited(child: Watchdog, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

async function spawnOnce(binary: string, port: number): Promise<SpawnedToxiproxy | { failure: string }> {
  const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  const child = spawn('/bin/sh', ['-c', WATCHDOG, binary, '-host', '127.0.0.1', '-port', String(port)], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  }) as Watchdog;
  let output = '';
  child.stderr.on('data', (part: Buffer) => {
    output = (output + part.toString('utf8')).slice(-4_000);
  });
  child.stdin.on('error', () => {});
  const pid = await new Promise<number | undefined>((resolve) => {
    child.stdout.once('data', (part: Buffer) => resolve(Number.parseInt(part.toString('utf8'), 10) || undefined));
    child.once('exit', () => resolve(undefined));
    child.once('error', () => resolve(undefined));
  });
  const reap = async () => {
    child.stdin.end();
    if (await exited(child, EXIT_GRACE_MS)) return;
    if (pid) killQuietly(pid, 'SIGKILL');
    child.kill('SIGKILL');
    await exited(child, EXIT_GRACE_MS);
  };
  if (!pid) {
    await reap();
    return { failure: `could not start ${binary}: ${output.trim() || 'no output'}` };
  }
  // Belt and braces for a normal exit: the watchdog would do it, this does it at once.
  const onExit = () => killQuietly(pid, 'SIGTERM');
  process.once('exit', onExit);

  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + READY_TIMEOUT_MS;
  let version: string | undefined;
  while (performance.now() < deadline && child.exitCode === null) {
    version = await versionAt(url);
    if (version) break;
    await sleep(50);
  }
  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= reap().finally(() => process.off('exit', onExit));
    return closing;
  };
  if (!version) {
    await close();
    return {
      failure: `${binary} did not answer on ${url} within ${READY_TIMEOUT_MS} ms: ${output.trim() || 'no output'}`,
    };
  }
  return { url, version, pid, close };
}

/** Starts `binary -host 127.0.0.1 -port N` and waits (bounded) until its API answers. */
export async function spawnToxiproxyServer(binary: string): Promise<SpawnedToxiproxy> {
  let failure = '';
  // A freed port can be taken before the child binds it; a fresh port usually fixes that.
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await spawnOnce(binary, await freeLoopbackPort());
    if (!('failure' in started)) return started;
    failure = started.failure;
  }
  throw new Error(failure);
}
