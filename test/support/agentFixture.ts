// Starts the reference agent as a child process for a test (for kill -9, exit codes, stderr),
// always torn down. The in-process helpers live in inProcessAgent.ts, which starts no process (a
// file importing only that one can sit in the unit tier); they are re-exported here for files that
// need both kinds.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { startJsonLineChild } from '../../rig/engine/environment/jsonLineChild.ts';
import { repoRoot } from './inProcessAgent.ts';

export { agentsOnPaths, HITL, inProcessAgent, repoRoot, tempDbPath } from './inProcessAgent.ts';

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
