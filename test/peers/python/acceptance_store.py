"""The acceptance gates' durable state: one sqlite row per gated task, in the peer's own database file."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any


class Gates:
    """One row per gated task, in the peer's sqlite file. Every transition is one committed UPDATE, and
    a decision is applied only by an UPDATE conditional on the pending state: exactly one wins."""

    def __init__(self, db: sqlite3.Connection, faults: set[str]) -> None:
        self.db, self.faults = db, faults
        self.memory_rejections: dict[str, int] = {}  # acceptance-forgets-rejections only
        db.execute('CREATE TABLE IF NOT EXISTS gates (task_id TEXT PRIMARY KEY, context_id TEXT NOT NULL,'
                   ' criteria TEXT NOT NULL, creator TEXT NOT NULL, deciders TEXT NOT NULL, attempts TEXT NOT NULL,'
                   ' attempt INTEGER NOT NULL DEFAULT 0, rejections INTEGER NOT NULL DEFAULT 0,'
                   " state TEXT NOT NULL DEFAULT 'running', deadline REAL)")

    def create(self, task_id: str, context_id: str, setup: dict[str, Any]) -> None:
        self.db.execute('INSERT OR IGNORE INTO gates (task_id, context_id, criteria, creator, deciders, attempts)'
                        ' VALUES (?,?,?,?,?,?)', (task_id, context_id, json.dumps(setup['criteria']),
                                                 setup['creator'], json.dumps(setup['deciders']),
                                                 json.dumps(setup['attempts'])))

    def get(self, task_id: str) -> dict[str, Any] | None:
        row = self.db.execute('SELECT task_id, context_id, criteria, creator, deciders, attempts, attempt,'
                              ' rejections, state, deadline FROM gates WHERE task_id=?', (task_id,)).fetchone()
        if not row:
            return None
        keys = ('task_id', 'context_id', 'criteria', 'creator', 'deciders', 'attempts', 'attempt', 'rejections',
                'state', 'deadline')
        gate = dict(zip(keys, row))
        for k in ('criteria', 'deciders', 'attempts'):
            gate[k] = json.loads(gate[k])
        return gate

    def park(self, task_id: str, timeout_s: int) -> None:
        self.db.execute("UPDATE gates SET state='pending', deadline=? WHERE task_id=?",
                        (time.time() + timeout_s, task_id))

    def finish(self, task_id: str, state: str) -> None:
        self.db.execute('UPDATE gates SET state=?, deadline=NULL WHERE task_id=?', (state, task_id))

    def decide(self, task_id: str, decision: dict[str, Any]) -> str | None:
        """Applies a decision iff the task is pending now: 'accepted' | 'retry' | 'failed' (its outcome),
        or None when another decision (or the timeout) got there first or it is not yet pending."""
        if decision['action'] == 'accept':
            cur = self.db.execute("UPDATE gates SET state='accepted', deadline=NULL WHERE task_id=? AND state='pending'",
                                  (task_id,))
            return 'accepted' if cur.rowcount == 1 else None
        gate = self.get(task_id)
        if gate is None:
            return None
        if 'acceptance-forgets-rejections' in self.faults:
            count = self.memory_rejections.get(task_id, 0) + 1
        else:
            count = gate['rejections'] + 1
        retry = ((decision['retry'] or 'acceptance-ignores-retry-false' in self.faults)
                 and (count <= gate['criteria']['maxRejections'] or 'acceptance-ignores-max-rejections' in self.faults))
        cur = self.db.execute(
            "UPDATE gates SET rejections=?, attempt=attempt+1, state=?, deadline=NULL WHERE task_id=? AND state='pending'",
            (0 if 'acceptance-forgets-rejections' in self.faults else count, 'running' if retry else 'failed', task_id))
        if cur.rowcount != 1:
            return None
        self.memory_rejections[task_id] = count
        return 'retry' if retry else 'failed'

    def decided(self) -> list[tuple[str, str]]:
        return list(self.db.execute("SELECT task_id, state FROM gates WHERE state IN ('accepted', 'failed')"))

    def running(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT task_id FROM gates WHERE state='running'")]

    def expire(self, now: float) -> list[str]:
        """Pending gates past their deadline, each claimed (FAILED) by the same conditional UPDATE."""
        due = [r[0] for r in self.db.execute("SELECT task_id FROM gates WHERE state='pending' AND deadline<=?", (now,))]
        return [t for t in due if self.db.execute(
            "UPDATE gates SET state='failed', deadline=NULL WHERE task_id=? AND state='pending'", (t,)).rowcount == 1]
