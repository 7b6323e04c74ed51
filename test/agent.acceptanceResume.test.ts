// A crash between an attempt's artifacts and its pending status (separate commits) resumes where it
// stopped: the outbox is put back in exactly the state such a crash leaves (the artifacts stored
// and counted, the task WORKING, the pending status and its event not written), the agent reopens
// on it, and the task parks without emitting any artifact twice. Also a crash mid-work on a gated
// task: the work resumes, then the artifacts, then pending.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { agentsOnPaths, tempDbPath } from './support/inProcessAgent.ts';
import { replay, type ReplayFrame } from './support/rpcClient.ts';
import { PENDING_KEY, createGated, fetchTask, isPending, taskIn } from './support/acceptanceClient.ts';

const gen = '1.0' as const;
const { open, cleanups } = agentsOnPaths();

const isPendingFrame = (f: ReplayFrame) => f.event.statusUpdate?.status.message?.metadata?.[PENDING_KEY] === true;
const artifactsOf = (frames: ReplayFrame[]) =>
  frames.filter((f) => f.event.artifactUpdate).map((f) => f.event.artifactUpdate.artifact.parts[0].text);

describe('resuming an attempt after a crash', () => {
  it('parks without re-emitting the artifacts that were already committed', async () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const first = await open(db.path);
    const attempts = [[{ artifact: { text: 'a1' } }, { artifact: { text: 'a2' } }]];
    const task = taskIn(gen, await createGated(first.url, gen, { steps: [{ complete: {} }], attempts }));
    expect(isPending(task)).toBe(true);
    await first.close();

    // Undo the park commit (the last event, the status, the gate's pending flag), as a crash just before it.
    const raw = new Database(db.path);
    raw.transaction(() => {
      raw
        .prepare(`DELETE FROM events WHERE task_id = ? AND seq = (SELECT last_seq FROM tasks WHERE id = ?)`)
        .run(task.id, task.id);
      const workingStatus = `json('{"state":"TASK_STATE_WORKING","timestamp":"2026-01-01T00:00:00Z"}')`;
      raw
        .prepare(
          `UPDATE tasks SET state = 'TASK_STATE_WORKING', last_seq = last_seq - 1, ` +
            `task_json = json_set(task_json, '$.status', ${workingStatus}) WHERE id = ?`,
        )
        .run(task.id);
      raw.prepare(`UPDATE acceptance_gates SET pending = 0, pending_deadline = NULL WHERE task_id = ?`).run(task.id);
    })();
    expect(
      (raw.prepare(`SELECT emitted FROM acceptance_gates WHERE task_id = ?`).get(task.id) as { emitted: number })
        .emitted,
    ).toBe(2);
    raw.close();

    const second = await open(db.path);
    const { frames } = await replay(second.url, task.id, 0, { version: gen, until: (fs) => fs.some(isPendingFrame) });
    expect(frames.filter(isPendingFrame)).toHaveLength(1);
    expect(artifactsOf(frames)).toEqual(['a1', 'a2']);
    expect((await fetchTask(second.url, gen, task.id)).artifacts).toHaveLength(2);
  });

  it('a gated task caught in a work step finishes its work, emits, then parks', async () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const first = await open(db.path);
    const steps = [{ work: { ms: 60_000 } }, { artifact: { text: 'late' } }, { complete: {} }];
    const task = taskIn(gen, await createGated(first.url, gen, { steps, immediate: true }));
    await replay(first.url, task.id, 0, {
      version: gen,
      until: (fs) => fs.some((f) => f.event.statusUpdate?.status.state === 'TASK_STATE_WORKING'),
    });
    await first.close();
    // The work step restarts in full after a restart; shorten it in the stored script to keep the test quick.
    const raw = new Database(db.path);
    raw
      .prepare(`UPDATE tasks SET script_json = json_set(script_json, '$.steps[0].work.ms', 50) WHERE id = ?`)
      .run(task.id);
    raw.close();

    const second = await open(db.path);
    const { frames } = await replay(second.url, task.id, 0, { version: gen, until: (fs) => fs.some(isPendingFrame) });
    expect(artifactsOf(frames)).toEqual(['late']);
    expect(frames.findIndex((f) => f.event.artifactUpdate)).toBeLessThan(frames.findIndex(isPendingFrame));
  });
});
