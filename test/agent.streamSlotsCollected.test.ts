// Why the 33rd-stream test holds its Responses: undici cancels the body of a fetch Response that is
// garbage-collected unread, which closes that stream's connection, and the agent rightly frees the
// slot. A reader that keeps only its AbortController can lose a stream to a GC at any moment, and a
// SubscribeToTask meant to be the 33rd is then served as a live stream, which never ends: the
// failure once seen in CI (neither refused nor answered within 20 s). Reproduced here with a forced
// GC in a child process; the agent's bound holds as long as the readers stay reachable.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HITL, repoRoot, spawnAgent, type AgentChild } from './support/agentFixture.ts';
import { promptingTask } from './support/hostileClients.ts';

const run = promisify(execFile);
let agent: AgentChild;

beforeAll(async () => {
  agent = await spawnAgent([]);
}, 60_000);

afterAll(async () => {
  agent?.child.kill('SIGKILL');
  await agent?.exited;
});

async function readers(mode: '--keep' | '--drop'): Promise<{ served: boolean; kept: number }> {
  const task = await promptingTask(agent.url, 2);
  const script = join(repoRoot, 'test/support/droppedStreamReaders.mjs');
  const { stdout } = await run(process.execPath, ['--expose-gc', script, agent.url, task.taskId, '32', mode], {
    env: { ...process.env, HITL_URI: HITL },
    timeout: 30_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { served: boolean; kept: number };
}

describe('event-stream slots and collected readers', () => {
  it('32 readers that stay reachable hold their slots: one more stream is refused', async () => {
    expect(await readers('--keep')).toEqual({ served: false, kept: 32 });
  }, 40_000);

  it('readers whose Responses are collected free their slots: one more stream is then served', async () => {
    expect(await readers('--drop')).toEqual({ served: true, kept: 0 });
  }, 40_000);
});
