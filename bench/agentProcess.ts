// An agent under load runs in a process of its own, so its CPU is not shared with the load
// generator's event loop: the reference agent (`a2a-rig agent`) and the SDK agent
// (bench/sdkAgentProcess.ts) both print `{"url": ...}` as their first stdout line.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const repoRoot = new URL('../', import.meta.url).pathname;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface AgentProcess {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function urlLine(child: ChildProcess, name: string): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const line = await Promise.race([
      new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve)),
      new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before printing its URL`)))),
      new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${name} did not print its URL within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS))),
    ]);
    return (JSON.parse(line) as { url: string }).url;
  } finally {
    clearTimeout(timer);
  }
}

function owned(name: string, child: ChildProcess, cleanup: () => void = () => {}): (url: string) => AgentProcess {
  // Reaped if this benchmark dies first: a stray agent would disturb every later measurement.
  const reap = () => child.kill('SIGKILL');
  process.once('exit', reap);
  return (url) => ({
    name,
    url,
    pid: child.pid!,
    async stop() {
      process.removeListener('exit', reap);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      cleanup();
    },
  });
}

/** The reference agent with its outbox in a fresh temporary database; `args` adds e.g. `--fault volatile-outbox`. */
export async function startReferenceAgent(name: string, args: string[] = []): Promise<AgentProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-bench-'));
  const child = spawn(process.execPath, [join(repoRoot, 'bin/a2a-rig.js'), 'agent', '--port', '0', '--db', join(dir, 'outbox.db'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const make = owned(name, child, () => rmSync(dir, { recursive: true, force: true }));
  return make(await urlLine(child, name));
}

/** The @a2a-js/sdk 1.3.0 agent of test/support/sdkMinimalAgent.ts (express, in-memory task store). */
export async function startSdkAgent(name: string): Promise<AgentProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench/sdkAgentProcess.ts')], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const make = owned(name, child);
  return make(await urlLine(child, name));
}
