// Starts the reference agent for a test: in-process (fast) or as a child process (for kill -9),
// each on its own temp database, always torn down.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { startJsonLineChild } from '../../rig/engine/jsonLineChild.ts';
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

export interface AgentChild {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<number | null>;
  /** Everything the agent wrote on stderr so far. */
  stderr: () => string;
  /** The outbox it said it uses: without --db, a scratch directory the agent removes at a clean stop. */
  db: string;
  /** With --grpc-port: the gRPC binding's host:port, from the same line. */
  grpc?: string;
}

/** Spawns `a2a-rig agent` and waits (bounded) for its JSON line on stdout. */
export async function spawnAgent(args: string[], timeoutMs = 15_000): Promise<AgentChild> {
  const agent = await startJsonLineChild<{ url: string; pid: number; db: string; grpc?: string }>(
    process.execPath,
    [join(repoRoot, 'bin/a2a-rig.js'), 'agent', '--port', '0', ...args],
    {
      name: 'agent',
      timeoutMs,
    },
  );
  const { url, pid, db, grpc } = agent.info;
  return { url, pid, db, grpc, child: agent.child, exited: agent.exited, stderr: agent.stderr };
}

/** Agent children and temp dirs a test file owns: each still running is killed (-9) and awaited, and
 * each dir removed, after every test. Call once at the top of the file. */
export function ownedAgents(): { children: AgentChild[]; cleanups: Array<() => void> } {
  const owned = { children: [] as AgentChild[], cleanups: [] as Array<() => void> };
  afterEach(async () => {
    for (const c of owned.children)
      if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await Promise.all(owned.children.map((c) => c.exited));
    // A kill -9 leaves the scratch outbox of an agent started without --db: remove it here.
    for (const c of owned.children)
      if (/\/a2a-rig-agent-[^/]+\/outbox\.db$/.test(c.db)) rmSync(dirname(c.db), { recursive: true, force: true });
    for (const cleanup of owned.cleanups.splice(0)) cleanup();
    owned.children = [];
  });
  return owned;
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
