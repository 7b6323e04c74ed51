// Opens outbox files written before history and artifacts moved to rows of their own (issue 9
// item 11): such a file keeps the whole task, history and artifacts included, in tasks.task_json.
// This moves them into task_history / task_artifacts once, in one transaction, so an agent
// restarted on an older --db keeps every task it had.
import type Database from 'better-sqlite3';
import type { Artifact, Message, Task } from '../protocol/a2aTypes.ts';

export function migrateWholeTaskRows(db: Database.Database): void {
  const columns = db.prepare(`SELECT name FROM pragma_table_info('tasks')`).all() as Array<{ name: string }>;
  if (columns.some((c) => c.name === 'history_count')) return;
  const insertHistory = db.prepare(`INSERT INTO task_history (task_id, idx, bytes, message_json) VALUES (?, ?, ?, ?)`);
  const insertArtifact = db.prepare(`INSERT INTO task_artifacts (task_id, pos, artifact_json) VALUES (?, ?, ?)`);
  db.transaction(() => {
    db.exec(`ALTER TABLE tasks ADD COLUMN history_count INTEGER NOT NULL DEFAULT 0`);
    db.exec(`ALTER TABLE tasks ADD COLUMN history_bytes INTEGER NOT NULL DEFAULT 0`);
    const update = db.prepare(`UPDATE tasks SET task_json = ?, history_count = ?, history_bytes = ? WHERE id = ?`);
    const rows = db.prepare(`SELECT id, task_json FROM tasks`).all() as Array<{ id: string; task_json: string }>;
    for (const row of rows) {
      const { history = [], artifacts = [], ...core } = JSON.parse(row.task_json) as Task;
      let bytes = 0;
      (history as Message[]).forEach((message, idx) => {
        const text = JSON.stringify(message);
        bytes += Buffer.byteLength(text);
        insertHistory.run(row.id, idx, Buffer.byteLength(text), text);
      });
      (artifacts as Artifact[]).forEach((artifact, pos) => insertArtifact.run(row.id, pos, JSON.stringify(artifact)));
      update.run(JSON.stringify(core), history.length, bytes, row.id);
    }
  })();
}
