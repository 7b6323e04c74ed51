// Exactly one decision wins: a flood of concurrent accepts and final rejects on one pending task
// gets one 200 and -32042 (conflict) for every other; the task's event log holds one terminal
// transition; and the outcome is durable: an agent reopened on the same database reports it and
// still refuses further decisions. Across two agent processes on one database file too: there the
// conditional UPDATE of the gate, not the event loop, is what lets only one decision through; the
// window between two processes' reads is too small to hit on demand, so the last test pins the
// UPDATE itself: a decision made on a stale read of the gate moves nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../rig/agent/outbox.ts';
import { startAgent, type RunningAgent } from '../rig/agent/startAgent.ts';
import { spawnAgent, tempDbPath } from './support/agentFixture.ts';
import { replay, stateOf, type Gen } from './support/rpcClient.ts';
import { ACCEPT, REJECT, createGated, decide, fetchTask, taskIn } from './support/acceptanceClient.ts';

const owned: Array<{ agent?: RunningAgent; cleanup: () => void }> = [];
afterEach(async () => {
  for (const o of owned.splice(0)) {
    await o.agent?.close();
    o.cleanup();
  }
});

const FLOOD = 24;

describe.each(['1.0', '0.3'] as Gen[])('decision race over JSON-RPC %s', (gen) => {
  it(
    `${FLOOD} concurrent accepts and final rejects: exactly one wins, ` +
      `the rest get 409-conflict, and the outcome survives a reopen`,
    async () => {
      const db = tempDbPath();
      const slot: { agent?: RunningAgent; cleanup: () => void } = { cleanup: db.cleanup };
      owned.push(slot);
      slot.agent = await startAgent({ dbPath: db.path });
      const { url } = slot.agent;
      const task = taskIn(gen, await createGated(url, gen));

      const decisions = Array.from({ length: FLOOD }, (_, i) => (i % 2 === 0 ? ACCEPT : { ...REJECT, retry: false }));
      const replies = await Promise.all(decisions.map((d) => decide(url, gen, task.id, d)));
      const won = replies.filter((r) => r.body.result !== undefined);
      const lost = replies.filter((r) => r.body.error !== undefined);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(FLOOD - 1);
      for (const r of lost) expect(r.body.error.code).toBe(-32042);
      const outcome = stateOf(gen, taskIn(gen, won[0]));
      expect(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED']).toContain(outcome);

      const { frames } = await replay(url, task.id, 0, { version: '1.0', timeoutMs: 1_000 });
      const terminal = frames.filter((f) =>
        ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'].includes(f.event.statusUpdate?.status.state),
      );
      expect(terminal).toHaveLength(1);

      await slot.agent.close();
      slot.agent = await startAgent({ dbPath: db.path });
      expect(stateOf(gen, await fetchTask(slot.agent.url, gen, task.id))).toBe(outcome);
      const after = await decide(slot.agent.url, gen, task.id, ACCEPT);
      expect(after.body.error.code).toBe(-32042);
    },
  );
});

describe('decision race across two agent processes on one database', () => {
  it('exactly one of the decisions sent to both processes wins, and both then report it', async () => {
    const db = tempDbPath();
    owned.push({ cleanup: db.cleanup });
    const children = await Promise.all([spawnAgent(['--db', db.path]), spawnAgent(['--db', db.path])]);
    try {
      const urls = children.map((c) => c.url);
      const task = taskIn('1.0', await createGated(urls[0], '1.0'));
      const replies = await Promise.all(
        Array.from({ length: FLOOD }, (_, i) =>
          decide(urls[i % 2], '1.0', task.id, i % 3 === 0 ? ACCEPT : { ...REJECT, retry: false }),
        ),
      );
      expect(replies.filter((r) => r.body.result !== undefined)).toHaveLength(1);
      for (const r of replies.filter((r) => r.body.error !== undefined)) expect(r.body.error.code).toBe(-32042);
      const [seenByA, seenByB] = await Promise.all(urls.map((url) => fetchTask(url, '1.0', task.id)));
      expect(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED']).toContain(seenByA.status.state);
      expect(seenByB.status.state).toBe(seenByA.status.state);
    } finally {
      for (const c of children) c.child.kill('SIGKILL');
      await Promise.all(children.map((c) => c.exited));
    }
  });
});

describe('the gate store', () => {
  it('moves a gate only from the state its caller read: a second outbox on a stale read loses', () => {
    const db = tempDbPath();
    owned.push({ cleanup: db.cleanup });
    const [a, b] = [new Outbox(db.path), new Outbox(db.path)];
    try {
      a.gates.insert(
        't1',
        { requiredArtifacts: [], evaluator: 'client', acceptanceTimeoutSeconds: 60, maxRejections: 3 },
        'anonymous',
        [],
      );
      a.gates.park('t1', 0, new Date(Date.now() + 60_000).toISOString());
      // Both read the gate pending, as two processes racing would.
      expect(a.gates.get('t1')!.pending).toBe(true);
      expect(b.gates.get('t1')!.pending).toBe(true);
      expect(a.gates.decide('t1', 0, 'accepted')).toBe(true);
      expect(b.gates.decide('t1', 0, 'rejected')).toBe(false);
      expect(b.gates.retry('t1', 0, 1)).toBe(false);
      expect(b.gates.get('t1')).toMatchObject({ pending: false, outcome: 'accepted', attempt: 0, rejections: 0 });
    } finally {
      a.close();
      b.close();
    }
  });
});
