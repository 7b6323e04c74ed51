// The hitl-prompt/v1 prompts of tasks, in the outbox database beside them (one row per prompt
// step): the envelope and schema as emitted, the deadline and whether it was signalled, and the
// state, which moves from open to answered by one conditional UPDATE, so of racing answers exactly
// one is taken.
import type Database from 'better-sqlite3';

const PROMPTS_TABLE = `
CREATE TABLE IF NOT EXISTS prompts (
  task_id TEXT NOT NULL,
  step INTEGER NOT NULL,
  prompt_id TEXT NOT NULL,
  envelope_json TEXT NOT NULL,
  schema_json TEXT NOT NULL,
  deadline TEXT,
  deadline_signalled INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL,
  answer_json TEXT,
  PRIMARY KEY (task_id, step)
);
CREATE INDEX IF NOT EXISTS prompts_id ON prompts(prompt_id);
`;

export interface PromptRow {
  taskId: string;
  step: number;
  promptId: string;
  envelope: Record<string, unknown>;
  schema: Record<string, unknown>;
  deadline: string | null;
  deadlineSignalled: boolean;
  state: 'open' | 'answered' | 'closed';
}

function toPromptRow(r: Record<string, unknown>): PromptRow {
  return {
    taskId: r.task_id as string,
    step: r.step as number,
    promptId: r.prompt_id as string,
    envelope: JSON.parse(r.envelope_json as string),
    schema: JSON.parse(r.schema_json as string),
    deadline: (r.deadline as string | null) ?? null,
    deadlineSignalled: r.deadline_signalled === 1,
    state: r.state as PromptRow['state'],
  };
}

function statements(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT INTO prompts (task_id, step, prompt_id, envelope_json, schema_json, deadline, state) ` +
        `VALUES (?, ?, ?, ?, ?, ?, 'open')`,
    ),
    idExists: db.prepare(`SELECT 1 FROM prompts WHERE prompt_id = ? LIMIT 1`),
    find: db.prepare(`SELECT * FROM prompts WHERE task_id = ? AND prompt_id = ? ORDER BY step DESC LIMIT 1`),
    answer: db.prepare(
      `UPDATE prompts SET state = 'answered', answer_json = ? WHERE task_id = ? AND step = ? AND state = 'open'`,
    ),
    close: db.prepare(`UPDATE prompts SET state = 'closed' WHERE task_id = ? AND state = 'open'`),
    openOf: db.prepare(`SELECT * FROM prompts WHERE task_id = ? AND state = 'open' ORDER BY step DESC LIMIT 1`),
    pendingDeadlines: db.prepare(
      `SELECT * FROM prompts WHERE state = 'open' AND deadline IS NOT NULL AND deadline_signalled = 0`,
    ),
    markDeadline: db.prepare(`UPDATE prompts SET deadline_signalled = 1 WHERE task_id = ? AND step = ?`),
    countOpen: db.prepare(`SELECT COUNT(*) AS n FROM prompts WHERE state = 'open'`),
  };
}

export class PromptStore {
  private readonly stmt: ReturnType<typeof statements>;

  constructor(db: Database.Database) {
    db.exec(PROMPTS_TABLE);
    this.stmt = statements(db);
  }

  insert(p: Omit<PromptRow, 'state' | 'deadlineSignalled'>): void {
    this.stmt.insert.run(
      p.taskId,
      p.step,
      p.promptId,
      JSON.stringify(p.envelope),
      JSON.stringify(p.schema),
      p.deadline,
    );
  }

  idExists(promptId: string): boolean {
    return this.stmt.idExists.get(promptId) !== undefined;
  }

  find(taskId: string, promptId: string): PromptRow | undefined {
    const r = this.stmt.find.get(taskId, promptId) as Record<string, unknown> | undefined;
    return r ? toPromptRow(r) : undefined;
  }

  openOf(taskId: string): PromptRow | undefined {
    const r = this.stmt.openOf.get(taskId) as Record<string, unknown> | undefined;
    return r ? toPromptRow(r) : undefined;
  }

  /** True only for the one caller that moved the prompt from open to answered. */
  answer(taskId: string, step: number, answer: unknown): boolean {
    return this.stmt.answer.run(JSON.stringify(answer), taskId, step).changes === 1;
  }

  /** Closes the task's open prompts (it was canceled). */
  closeOpen(taskId: string): void {
    this.stmt.close.run(taskId);
  }

  pendingDeadlines(): PromptRow[] {
    return (this.stmt.pendingDeadlines.all() as Record<string, unknown>[]).map(toPromptRow);
  }

  markDeadlineSignalled(taskId: string, step: number): void {
    this.stmt.markDeadline.run(taskId, step);
  }

  openCount(): number {
    return (this.stmt.countOpen.get() as { n: number }).n;
  }
}
