// Starts the reference agent in this process for a test, each on its own temp database, always
// torn down. Nothing here starts a process: a test file that needs only these helpers stays in the
// unit tier (test/support/testTiers.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { HITL_PROMPT_URI } from '../../rig/protocol/hitlPrompt.ts';
import { startAgent, type AgentOptions, type RunningAgent } from '../../rig/agent/startAgent.ts';
import type { FaultName } from '../../rig/agent/faults.ts';
import type { AgentLimits } from '../../rig/agent/agentLimits.ts';

export const HITL = HITL_PROMPT_URI;
export const repoRoot = new URL('../../', import.meta.url).pathname;

export function tempDbPath(): { path: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-rig-test-'));
  return { path: join(dir, 'outbox.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function inProcessAgent(
  faults: FaultName[] = [],
  limits?: Partial<AgentLimits>,
  options: Pick<AgentOptions, 'grpcPort'> = {},
): Promise<RunningAgent & { cleanup: () => Promise<void> }> {
  const db = tempDbPath();
  const agent = await startAgent({ dbPath: db.path, faults, limits, ...options });
  return {
    ...agent,
    cleanup: async () => {
      await agent.close();
      db.cleanup();
    },
  };
}

/** In-process agents a test file opens on databases of its own choosing (to reopen one after a
 * close): `open` starts one; everything in `cleanups` runs, newest first, after every test. */
export function agentsOnPaths(): {
  open: (path: string) => Promise<RunningAgent>;
  cleanups: Array<() => Promise<void> | void>;
} {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    cleanups,
    open: async (path) => {
      const agent = await startAgent({ dbPath: path });
      cleanups.push(() => agent.close());
      return agent;
    },
  };
}
