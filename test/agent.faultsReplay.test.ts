// The fault flags of the event replay and its outbox, proven to bite: each test makes one
// observation against an agent started with the flag (the guarantee is broken) and the same
// observation against a correct agent (the guarantee holds).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, type FaultName } from '../rig/agent/faults.ts';
import { inProcessAgent, spawnAgent, tempDbPath, type AgentChild } from './support/agentFixture.ts';
import {
  INPUT_REQUIRED,
  REPLAY_FAULTS,
  answer,
  frameState,
  gen,
  replayFrames,
  start,
  withFault,
  type Proof,
  type ReplayFaultName,
} from './support/faultProofs.ts';
import { METHOD, headersFor, stateOf, taskOf, type ReplayFrame } from './support/rpcClient.ts';

let correct: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  correct = await inProcessAgent();
});
afterAll(async () => correct?.cleanup());

function isContiguousFromOne(seqs: number[]): boolean {
  return seqs.length > 0 && seqs.every((seq, i) => seq === i + 1);
}

/** Runs a prompt task through a restart of a spawned agent on the same --db; returns both replays. */
async function replayAcrossRestart(faults: FaultName[]): Promise<{ before: ReplayFrame[]; after: ReplayFrame[] }> {
  const db = tempDbPath();
  const args = ['--db', db.path, ...faults.flatMap((f) => ['--fault', f])];
  const children: AgentChild[] = [];
  try {
    children.push(await spawnAgent(args));
    const { task, envelope } = await start(children[0].url);
    const before = (
      await replayFrames(children[0].url, task.id, { until: (fs) => fs.some((f) => frameState(f) === INPUT_REQUIRED) })
    ).frames;
    children[0].child.kill('SIGTERM');
    expect(await children[0].exited).toBe(0);
    children.push(await spawnAgent(args));
    const url = children[1].url;
    const answered = await answer(url, task.id, envelope.prompt_id, { approved: true });
    expect(stateOf(gen, taskOf(gen, answered.body.result))).toBe('TASK_STATE_COMPLETED');
    // The task is terminal, so the replay socket closes once it has sent everything it has.
    const after = await replayFrames(url, task.id);
    expect(after.closeCode).toBe(1000);
    return { before, after: after.frames };
  } finally {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    db.cleanup();
  }
}

const proofs = {
  'drop-replay': async () => {
    const observe = async (url: string) => {
      const { task } = await start(url, [{ artifact: { text: 'a' } }, { artifact: { text: 'b' } }, { complete: {} }]);
      expect(stateOf(gen, task)).toBe('TASK_STATE_COMPLETED');
      return (await replayFrames(url, task.id)).frames.map((f) => f.seq);
    };
    const [broken, holds] = await Promise.all([withFault('drop-replay', observe), observe(correct.url)]);
    expect(isContiguousFromOne(holds)).toBe(true);
    expect(holds).toHaveLength(5);
    expect(isContiguousFromOne(broken)).toBe(false);
    expect(broken).toEqual([1, 3, 4, 5]);
  },

  'reorder-replay': async () => {
    const observe = async (url: string) => {
      const { task } = await start(url, [{ artifact: { text: 'a' } }, { artifact: { text: 'b' } }, { complete: {} }]);
      return (await replayFrames(url, task.id)).frames.map((f) => f.seq);
    };
    const [broken, holds] = await Promise.all([withFault('reorder-replay', observe), observe(correct.url)]);
    expect(isContiguousFromOne(holds)).toBe(true);
    expect(holds).toHaveLength(5);
    expect(isContiguousFromOne(broken)).toBe(false);
    expect(broken).toEqual([2, 1, 3, 4, 5]);
  },

  'volatile-outbox': async () => {
    const [broken, holds] = await Promise.all([replayAcrossRestart(['volatile-outbox']), replayAcrossRestart([])]);
    const seqs = (frames: ReplayFrame[]) => frames.map((f) => f.seq);
    expect(seqs(holds.before)).toEqual([1, 2, 3]);
    expect(holds.after.slice(0, holds.before.length)).toEqual(holds.before);
    expect(isContiguousFromOne(seqs(holds.after))).toBe(true);

    expect(seqs(broken.before)).toEqual([1, 2, 3]);
    // The pre-restart events are gone, while the task's seq went on counting from where it was.
    expect(broken.after.slice(0, broken.before.length)).not.toEqual(broken.before);
    expect(isContiguousFromOne(seqs(broken.after))).toBe(false);
    expect(broken.after[0].seq).toBe(broken.before.at(-1)!.seq + 1);
  },

  'silent-resubscribe': async () => {
    // What a subscription to the parked task shows in its first 5 s (the stream stays open: the
    // task is not terminal), read through to the deadline.
    const observe = async (url: string) => {
      const { task } = await start(url);
      const res = await fetch(url, {
        method: 'POST',
        headers: { ...headersFor(gen), accept: 'text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: METHOD[gen].subscribe, params: { id: task.id } }),
        signal: AbortSignal.timeout(5_000),
      });
      let text = '';
      try {
        for await (const chunk of res.body!) text += Buffer.from(chunk).toString('utf8');
      } catch {
        // The 5 s are up: the stream was still open.
      }
      const events = text.split('\n').flatMap((l) => (l.startsWith('data: ') ? [JSON.parse(l.slice(6))] : []));
      return { status: res.status, events };
    };
    const [broken, holds] = await Promise.all([withFault('silent-resubscribe', observe), observe(correct.url)]);
    expect(holds.status).toBe(200);
    expect(stateOf(gen, holds.events[0].result.task)).toBe(INPUT_REQUIRED);
    expect(broken.status).toBe(200);
    expect(broken.events).toEqual([]);
  },
} satisfies Record<ReplayFaultName, Proof>;

describe('fault flags of the replay: each breaks its guarantee, which holds without it', () => {
  for (const fault of REPLAY_FAULTS) {
    it(`${fault}: ${FAULTS[fault]}`, proofs[fault]);
  }
});
