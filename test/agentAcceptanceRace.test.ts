// Exactly one decision wins: a flood of concurrent accepts and final rejects on one pending task
// gets one 200 and -32042 (conflict) for every other; the task's event log holds one terminal
// transition; and the outcome is durable: an agent reopened on the same database reports it and
// still refuses further decisions.
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../rig/agent/startAgent.ts';
import { tempDbPath } from './support/agentFixture.ts';
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
  it(`${FLOOD} concurrent accepts and final rejects: exactly one wins, the rest get 409-conflict, and the outcome survives a reopen`, async () => {
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
    const terminal = frames.filter((f) => ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED'].includes(f.event.statusUpdate?.status.state));
    expect(terminal).toHaveLength(1);

    await slot.agent.close();
    slot.agent = await startAgent({ dbPath: db.path });
    expect(stateOf(gen, await fetchTask(slot.agent.url, gen, task.id))).toBe(outcome);
    const after = await decide(slot.agent.url, gen, task.id, ACCEPT);
    expect(after.body.error.code).toBe(-32042);
  });
});
