// The gate survives kill -9 (a spawned agent restarted on the same --db): a pending task stays
// pending with its artifacts, attempt and rejection count (the next rejection past maxRejections
// fails it), every stored event replays unchanged, and a timeout that passed while the agent was
// down fires at startup.
import { describe, expect, it } from 'vitest';
import { spawnAgent, tempDbPath, type AgentChild, ownedAgents } from './support/agentFixture.ts';
import { replay, stateOf, type ReplayFrame } from './support/rpcClient.ts';
import { ACCEPT, REJECT, createGated, decide, fetchTask, isPending, taskIn } from './support/acceptanceClient.ts';

const gen = '1.0' as const;
const owned = ownedAgents();

async function spawnOwned(args: string[]): Promise<AgentChild> {
  const agent = await spawnAgent(args);
  owned.children.push(agent);
  return agent;
}

function freshDb(): string[] {
  const db = tempDbPath();
  owned.cleanups.push(db.cleanup);
  return ['--db', db.path];
}

async function killHard(agent: AgentChild): Promise<void> {
  agent.child.kill('SIGKILL');
  await agent.exited;
  expect(agent.child.signalCode).toBe('SIGKILL');
}

const stateFrames = (frames: ReplayFrame[], state: string) =>
  frames.filter((f) => f.event.statusUpdate?.status.state === state);

describe('acceptance gate across kill -9', () => {
  it('keeps the pending state, the artifacts and the rejection count; the events replay unchanged', async () => {
    const args = freshDb();
    const first = await spawnOwned(args);
    const attempts = [
      [{ artifact: { name: 'result', text: 'bad' } }],
      [{ artifact: { name: 'result', text: 'better' } }],
    ];
    const created = taskIn(
      gen,
      await createGated(first.url, gen, { attempts, criteria: { maxRejections: 1 } }, { token: 'owner' }),
    );
    const again = taskIn(
      gen,
      await decide(first.url, gen, created.id, REJECT, { token: 'owner', feedback: 'not yet' }),
    );
    expect(isPending(again)).toBe(true);
    const before = (
      await replay(first.url, created.id, 0, {
        version: gen,
        until: (fs) => stateFrames(fs, 'TASK_STATE_INPUT_REQUIRED').length === 2,
      })
    ).frames;
    await killHard(first);

    const second = await spawnOwned(args);
    const after = await fetchTask(second.url, gen, created.id);
    expect(stateOf(gen, after)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(isPending(after)).toBe(true);
    expect(after.artifacts.map((a: any) => a.parts[0].text)).toEqual(['first draft', 'bad', 'better']);
    const replayed = (
      await replay(second.url, created.id, 0, { version: gen, until: (fs) => fs.length >= before.length })
    ).frames;
    expect(replayed.slice(0, before.length)).toEqual(before);
    // One rejection was spent before the crash: the second one is past maxRejections (1).
    const last = taskIn(gen, await decide(second.url, gen, created.id, REJECT, { token: 'owner' }));
    expect(stateOf(gen, last)).toBe('TASK_STATE_FAILED');
  });

  it('fires a timeout that passed while the agent was down, at startup', async () => {
    const args = freshDb();
    const first = await spawnOwned(args);
    const created = taskIn(gen, await createGated(first.url, gen, { criteria: { acceptanceTimeoutSeconds: 3 } }));
    expect(isPending(created)).toBe(true);
    const parkedAt = Date.now();
    await killHard(first);
    // Killed before the deadline (parked before parkedAt, 3 s to go), so only a restart can fire it.
    expect(Date.now() - parkedAt).toBeLessThan(2_500);
    // The deadline must pass while nothing runs (bounded: three seconds).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, parkedAt + 3_100 - Date.now())));

    const second = await spawnOwned(args);
    const { frames } = await replay(second.url, created.id, 0, {
      version: gen,
      until: (fs) => stateFrames(fs, 'TASK_STATE_FAILED').length > 0,
      timeoutMs: 5_000,
    });
    expect(stateFrames(frames, 'TASK_STATE_FAILED')).toHaveLength(1);
    expect((await decide(second.url, gen, created.id, ACCEPT)).body.error.code).toBe(-32042);
  });
});
