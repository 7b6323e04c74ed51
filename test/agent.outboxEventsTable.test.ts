// The outbox's event log (rig/agent/outboxDatabase.ts) is a rowid table: an event's JSON is kept
// out of the (task_id, seq) key's b-tree, where an answer to an older task lands mid-tree. A file
// made before, with the log as a WITHOUT ROWID table, opens as it is and appends and replays the same.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../rig/agent/outbox.ts';
import { tempDbPath } from './support/inProcessAgent.ts';
import { bareTaskRow } from './support/engineFixture.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const OLD_EVENTS =
  'CREATE TABLE events (task_id TEXT NOT NULL, seq INTEGER NOT NULL, event_id TEXT NOT NULL, ' +
  'event_json TEXT NOT NULL, PRIMARY KEY (task_id, seq)) WITHOUT ROWID';

function open(path: string): Outbox {
  const outbox = new Outbox(path);
  cleanups.push(() => outbox.close());
  return outbox;
}

/** Appends `n` WORKING events to a fresh task, committed. */
function appendEvents(outbox: Outbox, id: string, n: number): void {
  const row = bareTaskRow(id);
  outbox.transaction(() => {
    for (let i = 0; i < n; i++)
      outbox.appendEvent(row, { statusUpdate: { taskId: id, contextId: 'c', status: row.task.status } });
    outbox.insertTask(row);
  });
  outbox.commitBatch();
}

const tableSql = (path: string) => {
  const reader = new Database(path, { readonly: true });
  try {
    return (reader.prepare("SELECT sql FROM sqlite_schema WHERE name = 'events'").get() as { sql: string }).sql;
  } finally {
    reader.close();
  }
};

describe("the outbox's event log", () => {
  it('is a rowid table with its (task_id, seq) key in an index of its own', () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const outbox = open(db.path);
    appendEvents(outbox, 't1', 3);
    expect(tableSql(db.path)).not.toMatch(/WITHOUT ROWID/i);
    expect(outbox.eventsSince('t1', 1).map((e) => e.seq)).toEqual([2, 3]);
  });

  it('opens a file whose log is a WITHOUT ROWID table as it is, and appends and replays the same', () => {
    const db = tempDbPath();
    cleanups.push(db.cleanup);
    const old = new Database(db.path);
    old.exec(OLD_EVENTS);
    old.close();
    const outbox = open(db.path);
    appendEvents(outbox, 't1', 3);
    expect(tableSql(db.path)).toMatch(/WITHOUT ROWID/i);
    expect(outbox.eventsSince('t1', 0).map((e) => e.seq)).toEqual([1, 2, 3]);
  });
});
