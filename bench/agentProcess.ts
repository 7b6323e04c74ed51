// An agent under load runs in a process of its own, so its CPU is not shared with the load
// generator's event loop: the reference agent (`a2a-rig agent`) and the SDK agent
// (bench/sdkAgentProcess.ts) both print `{"url": ...}` as their first stdout line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startJsonLineChild } from '../rig/engine/environment/jsonLineChild.ts';

export const repoRoot = new URL('../', import.meta.url).pathname;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface AgentProcess {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

// Reaped (-9) if this benchmark dies first (jsonLineChild.ts): a stray agent would disturb every
// later measurement. Its stderr goes on to ours.
async function start(name: string, args: string[], cleanup: () => void = () => {}): Promise<AgentProcess> {
  const agent = await startJsonLineChild<{ url: string }>(process.execPath, args, {
    name,
    timeoutMs: START_TIMEOUT_MS,
    cwd: repoRoot,
    echoStderr: true,
  }).catch((err: unknown) => {
    cleanup();
    throw err;
  });
  return {
    name,
    url: agent.info.url,
    pid: agent.child.pid!,
    async stop() {
      await agent.stop(STOP_TIMEOUT_MS);
      cleanup();
    },
  };
}

/** The reference agent with its outbox in a fresh temporary database; `args` adds e.g. `--fault volatile-outbox`. */
export function startReferenceAgent(name: string, args: string[] = []): Promise<AgentProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-bench-'));
  return start(
    name,
    [join(repoRoot, 'bin/a2a-rig.js'), 'agent', '--port', '0', '--db', join(dir, 'outbox.db'), ...args],
    () => rmSync(dir, { recursive: true, force: true }),
  );
}

/** node:http doing only a SendMessage's HTTP work (bench/httpFloorProcess.ts): the floor under both agents. */
export function startHttpFloor(name: string): Promise<AgentProcess> {
  return start(name, ['--import', 'tsx', join(repoRoot, 'bench/httpFloorProcess.ts')]);
}

/** The @a2a-js/sdk 1.3.0 agent of test/support/sdkMinimalAgent.ts (express, in-memory task store). */
export function startSdkAgent(name: string): Promise<AgentProcess> {
  return start(name, ['--import', 'tsx', join(repoRoot, 'bench/sdkAgentProcess.ts')]);
}
