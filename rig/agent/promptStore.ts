// The hitl-prompt/v1 prompts of tasks, in the outbox database beside them (one row per prompt
// step): the envelope and schema as emitted, the deadline and whether it was signalled, and the
// state, which moves from open to answered by one conditional UPDATE, so of racing answers exactly
// one is taken.
// The prompts this process emitted and nobody has answered are also kept in memory (bounded, written
// through), so an answer finds its prompt without a SELECT and two JSON.parse. The outbox drops
// them with its row cache (a rolled-back transaction, another process's commit): then the table
// answers, as it does for any prompt not kept.
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

/** Open prompts kept in memory at most (count, and bytes of their envelope and schema JSON). */
export const OPEN_PROMPT_CACHE: Readonly<{ prompts: number; bytes: number }> = Object.freeze({
  prompts: 16_384,
  bytes: 16 * 1024 * 1024,
});

export class PromptStore {
  private readonly stmt: ReturnType<typeof statements>;
  /** The open prompt of a task, by task id, oldest first, with its size. */
  private readonly open = new Map<string, { prompt: PromptRow; bytes: number }>();
  private openBytes = 0;

  constructor(
    db: Database.Database,
    private readonly limits = OPEN_PROMPT_CACHE,
  ) {
    db.exec(PROMPTS_TABLE);
    this.stmt = statements(db);
  }

  insert(p: Omit<PromptRow, 'state' | 'deadlineSignalled'>): void {
    const envelope = JSON.stringify(p.envelope);
    const schema = JSON.stringify(p.schema);
    this.stmt.insert.run(p.taskId, p.step, p.promptId, envelope, schema, p.deadline);
    this.forget(p.taskId);
    const bytes = envelope.length + schema.length;
    this.open.set(p.taskId, { prompt: { ...p, state: 'open', deadlineSignalled: false }, bytes });
    this.openBytes += bytes;
    while (this.open.size > this.limits.prompts || this.openBytes > this.limits.bytes) {
      this.forget(this.open.keys().next().value!);
    }
  }

  /** Drops every prompt kept in memory (the outbox's row cache was dropped: see outbox.ts). */
  forgetCached(): void {
    this.open.clear();
    this.openBytes = 0;
  }

  private forget(taskId: string): void {
    const kept = this.open.get(taskId);
    if (!kept) return;
    this.open.delete(taskId);
    this.openBytes -= kept.bytes;
  }

  idExists(promptId: string): boolean {
    return this.stmt.idExists.get(promptId) !== undefined;
  }

  find(taskId: string, promptId: string): PromptRow | undefined {
    // The newest step of the task is the open one; an older prompt_id is read from the table.
    const kept = this.open.get(taskId)?.prompt;
    if (kept?.promptId === promptId) return kept;
    const r = this.stmt.find.get(taskId, promptId) as Record<string, unknown> | undefined;
    return r ? toPromptRow(r) : undefined;
  }

  openOf(taskId: string): PromptRow | undefined {
    const kept = this.open.get(taskId)?.prompt;
    if (kept) return kept;
    const r = this.stmt.openOf.get(taskId) as Record<string, unknown> | undefined;
    return r ? toPromptRow(r) : undefined;
  }

  /** True only for the one caller that moved the prompt from open to answered. */
  answer(taskId: string, step: number, answer: unknown): boolean {
    const taken = this.stmt.answer.run(JSON.stringify(answer), taskId, step).changes === 1;
    if (taken) this.forget(taskId);
    return taken;
  }

  /** Closes the task's open prompts (it was canceled). */
  closeOpen(taskId: string): void {
    this.stmt.close.run(taskId);
    this.forget(taskId);
  }

  pendingDeadlines(): PromptRow[] {
    return (this.stmt.pendingDeadlines.all() as Record<string, unknown>[]).map(toPromptRow);
  }

  markDeadlineSignalled(taskId: string, step: number): void {
    this.stmt.markDeadline.run(taskId, step);
    const kept = this.open.get(taskId)?.prompt;
    if (kept?.step === step) kept.deadlineSignalled = true;
  }

  openCount(): number {
    return (this.stmt.countOpen.get() as { n: number }).n;
  }
}
