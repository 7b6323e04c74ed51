// Group commit under a crash (rig/agent/outbox.ts, commitHold.ts): the agent is killed with
// SIGKILL while 16 clients keep sending, right after replies came in; after a restart on the same
// outbox every task it acknowledged is there, in at least the state the acknowledgement showed.
// (The deterministic proof that no reply leaves before its COMMIT is agent.outboxGroupCommit.test.ts;
// this is the end-to-end guarantee, with real sockets and a real kill.)
import { describe, expect, it } from 'vitest';
import { spawnAgent, tempDbPath, ownedAgents } from './support/agentFixture.ts';
import { METHOD, headersFor, rpc, userMessage } from './support/rpcClient.ts';

const gen = '1.0' as const;
const CLIENTS = 16;
const KILL_AFTER = 400;

const owned = ownedAgents();

describe('group commit and kill -9', () => {
  it('every task acknowledged before the kill is stored, in the acknowledged state or later', async () => {
    const db = tempDbPath();
    owned.cleanups.push(db.cleanup);
    const agent = await spawnAgent(['--db', db.path]);
    owned.children.push(agent);
    const acknowledged = new Map<string, string>();
    let killed = false;
    const client = async (k: number) => {
      // Bounded: each client stops at the kill (or after 2,000 sends if the kill never comes).
      for (let i = 0; i < 2_000 && !killed; i += 1) {
        const blocking = (i + k) % 2 === 0;
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: METHOD[gen].send,
          params: {
            message: userMessage(gen, { messageId: 'tck-complete-task-1' }),
            configuration: { returnImmediately: !blocking },
          },
        });
        let reply: any;
        try {
          const res = await fetch(agent.url, {
            method: 'POST',
            headers: headersFor(gen),
            body,
            signal: AbortSignal.timeout(10_000),
          });
          reply = await res.json();
        } catch {
          return; // the kill cut this request: it was never acknowledged
        }
        const task = reply.result?.task;
        if (task) acknowledged.set(task.id, task.status.state);
        if (!killed && acknowledged.size >= KILL_AFTER) {
          killed = true;
          agent.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, k) => client(k)));
    await agent.exited;
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);

    const again = await spawnAgent(['--db', db.path]);
    owned.children.push(again);
    const order = ['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED'];
    const missing: string[] = [];
    for (const [id, state] of acknowledged) {
      const got = await rpc(again.url, gen, METHOD[gen].get, { id });
      const stored = got.body.result?.status?.state as string | undefined;
      if (stored === undefined || order.indexOf(stored) < order.indexOf(state))
        missing.push(`${id}: acknowledged ${state}, stored ${stored ?? 'nothing'}`);
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
