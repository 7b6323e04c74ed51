// The acceptance gate of a task, in the outbox database beside the task (one row per gated task).
// Every change that decides the gate is a conditional UPDATE (pending = 1 AND attempt = ?), run in
// the same transaction as the task's state change and its event: of any number of racing decisions
// (or a decision racing the timeout) exactly one moves the row, in this process or another.
//
// Schema change (issue 12): the table is new and created with IF NOT EXISTS when the outbox opens,
// so an outbox file written before it opens unchanged: its tasks simply have no gate.
import type Database from 'better-sqlite3';
import type { GateCriteria } from './acceptanceCriteria.ts';

export const GATES_TABLE = `
CREATE TABLE IF NOT EXISTS acceptance_gates (
  task_id TEXT PRIMARY KEY,
  criteria_json TEXT NOT NULL,
  creator TEXT NOT NULL,
  deciders_json TEXT NOT NULL,
  attempt INTEGER NOT NULL DEFAULT 0,
  rejections INTEGER NOT NULL DEFAULT 0,
  -- Artifacts of the current attempt already emitted: a restart resumes after them, never repeats them.
  emitted INTEGER NOT NULL DEFAULT 0,
  pending INTEGER NOT NULL DEFAULT 0,
  pending_deadline TEXT,
  -- NULL while undecided; accepted | rejected | timed-out | met | not-met | canceled | completed.
  outcome TEXT
);
CREATE INDEX IF NOT EXISTS acceptance_gates_pending ON acceptance_gates(pending) WHERE pending = 1;
`;

export type GateOutcome = 'accepted' | 'rejected' | 'timed-out' | 'met' | 'not-met' | 'canceled' | 'completed';

export interface GateRow {
  taskId: string;
  criteria: GateCriteria;
  /** Principal (sha256 hex of the bearer token, or `anonymous`) of the creating request. */
  creator: string;
  /** Further principals the creating message named as deciders. */
  deciders: string[];
  /** 0-based attempt number. */
  attempt: number;
  /** Rejections that retried so far (durable). */
  rejections: number;
  emitted: number;
  pending: boolean;
  /** ISO time after which a pending gate fails, while pending. */
  pendingDeadline: string | null;
  outcome: GateOutcome | null;
}

function toGateRow(r: Record<string, unknown>): GateRow {
  return {
    taskId: r.task_id as string,
    criteria: JSON.parse(r.criteria_json as string) as GateCriteria,
    creator: r.creator as string,
    deciders: JSON.parse(r.deciders_json as string) as string[],
    attempt: r.attempt as number,
    rejections: r.rejections as number,
    emitted: r.emitted as number,
    pending: r.pending === 1,
    pendingDeadline: (r.pending_deadline as string | null) ?? null,
    outcome: (r.outcome as GateOutcome | null) ?? null,
  };
}

export class GateStore {
  private readonly stmt;

  constructor(db: Database.Database) {
    db.exec(GATES_TABLE);
    this.stmt = {
      insert: db.prepare(
        `INSERT INTO acceptance_gates (task_id, criteria_json, creator, deciders_json) VALUES (?, ?, ?, ?)`,
      ),
      get: db.prepare(`SELECT * FROM acceptance_gates WHERE task_id = ?`),
      exists: db.prepare(`SELECT 1 FROM acceptance_gates WHERE task_id = ?`),
      emitted: db.prepare(`UPDATE acceptance_gates SET emitted = ? WHERE task_id = ? AND attempt = ?`),
      park: db.prepare(
        `UPDATE acceptance_gates SET pending = 1, pending_deadline = ? ` +
          `WHERE task_id = ? AND attempt = ? AND outcome IS NULL`,
      ),
      decide: db.prepare(
        `UPDATE acceptance_gates SET pending = 0, pending_deadline = NULL, outcome = ? ` +
          `WHERE task_id = ? AND attempt = ? AND pending = 1`,
      ),
      retry: db.prepare(
        `UPDATE acceptance_gates SET pending = 0, pending_deadline = NULL, ` +
          `attempt = attempt + 1, emitted = 0, rejections = ?
         WHERE task_id = ? AND attempt = ? AND pending = 1`,
      ),
      settle: db.prepare(
        `UPDATE acceptance_gates SET pending = 0, pending_deadline = NULL, outcome = ? ` +
          `WHERE task_id = ? AND outcome IS NULL`,
      ),
      overwrite: db.prepare(
        `UPDATE acceptance_gates SET pending = 0, pending_deadline = NULL, outcome = ? WHERE task_id = ?`,
      ),
      pending: db.prepare(`SELECT * FROM acceptance_gates WHERE pending = 1`),
      countPending: db.prepare(`SELECT COUNT(*) AS n FROM acceptance_gates WHERE pending = 1`),
    };
  }

  insert(taskId: string, criteria: GateCriteria, creator: string, deciders: string[]): void {
    this.stmt.insert.run(taskId, JSON.stringify(criteria), creator, JSON.stringify(deciders));
  }

  get(taskId: string): GateRow | undefined {
    const r = this.stmt.get.get(taskId) as Record<string, unknown> | undefined;
    return r ? toGateRow(r) : undefined;
  }

  has(taskId: string): boolean {
    return this.stmt.exists.get(taskId) !== undefined;
  }

  markEmitted(taskId: string, attempt: number, emitted: number): void {
    this.stmt.emitted.run(emitted, taskId, attempt);
  }

  park(taskId: string, attempt: number, deadline: string): void {
    this.stmt.park.run(deadline, taskId, attempt);
  }

  /** True only for the one caller that moved the pending gate of `attempt` to `outcome`. */
  decide(taskId: string, attempt: number, outcome: GateOutcome): boolean {
    return this.stmt.decide.run(outcome, taskId, attempt).changes === 1;
  }

  /** True only for the one caller that moved the pending gate of `attempt` on to the next attempt. */
  retry(taskId: string, attempt: number, rejections: number): boolean {
    return this.stmt.retry.run(rejections, taskId, attempt).changes === 1;
  }

  /** Ends an undecided gate (cancel, agent evaluation, or a completion that skipped the gate). */
  settle(taskId: string, outcome: GateOutcome): void {
    this.stmt.settle.run(outcome, taskId);
  }

  /** Records an outcome whatever the gate's state (the accepts-second-decision fault only). */
  overwrite(taskId: string, outcome: GateOutcome): void {
    this.stmt.overwrite.run(outcome, taskId);
  }

  pendingCount(): number {
    return (this.stmt.countPending.get() as { n: number }).n;
  }

  pendingGates(): GateRow[] {
    return (this.stmt.pending.all() as Record<string, unknown>[]).map(toGateRow);
  }
}
