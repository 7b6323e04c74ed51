"""SDK-independent half of the foreign hitl-prompt/v1 test peers.

Written from the extension's spec and contract files, not from the rig or its reference agent:
these peers exist to check the rig against an agent it did not write. Everything here is plain
Python (stdlib + jsonschema) so the two SDK adapters (a2a-sdk 1.3.0 and 0.3.26) share one copy of
the prompt store, the payload validation, the error shapes and the HTTP-level behaviour.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

from jsonschema import Draft202012Validator

URI = 'https://agentic-sandbox.aiwg.io/extensions/hitl-prompt/v1'
HEADERS = (b'a2a-extensions', b'x-a2a-extensions')

# Deliberately broken variants. Each breaks exactly one guarantee of the spec.
FAULTS = {
    'duplicate-accepted',  # a second answer to the same prompt is accepted too
    'no-validation',  # any payload is accepted
    'slow-resume',  # the task leaves INPUT_REQUIRED only ~1.5 s after acceptance
    'volatile',  # tasks and prompts live in memory only: a restart loses them
    'sdk-errors',  # rejections rendered the SDK's way (HTTP 200, google.rpc ErrorInfo details)
    'keep-input-required',  # accepts, but the task stays INPUT_REQUIRED
    'envelope-extra-field',  # the envelope carries a key the contract forbids
    'envelope-without-activation',  # the envelope is sent even when the client did not activate
    'no-extension-echo',  # the activated URI is not echoed in the response headers
    'answer-202',  # the accepted answer's reply is HTTP 202, where CF-2 says 200
    'silent-resubscribe',  # a resubscribe answers 200 and stays open, silent: the open prompt is not replayed
}

RESPONSE_SCHEMA: dict[str, Any] = {
    '$schema': 'https://json-schema.org/draft/2020-12/schema',
    'type': 'object',
    'additionalProperties': False,
    'required': ['approved'],
    'properties': {
        'approved': {'type': 'boolean'},
        'comment': {'type': 'string', 'maxLength': 1024},
    },
}
PROMPT_TEXT = 'Approve the requested action?'
PLAIN_TEXT = 'Input required: reply with your approval.'
SLOW_RESUME_S = 1.5


def parse_args(argv: list[str] | None = None, extra_faults: set[str] = frozenset()) -> argparse.Namespace:
    p = argparse.ArgumentParser(description='hitl-prompt/v1 test peer on the official a2a-sdk')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--db', required=True, help='sqlite file for tasks and prompts')
    p.add_argument('--fault', action='append', default=[], choices=sorted(FAULTS | extra_faults))
    p.add_argument('--binding', choices=['jsonrpc', 'http+json', 'grpc'], default='jsonrpc',
                   help='the one binding served (1.x only for http+json and grpc; grpc on --grpc-port, '
                        'the card staying on HTTP at --port)')
    p.add_argument('--grpc-port', type=int, default=0)
    return p.parse_args(argv)


class Store:
    """Prompts and (SDK-serialized) tasks in one sqlite file; ':memory:' for the volatile variant.

    Every write commits before returning, so whatever a reply reports is on disk first.
    """

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        if path != ':memory:':
            self.db.execute('PRAGMA journal_mode=WAL')
            self.db.execute('PRAGMA synchronous=FULL')
        self.db.execute(
            'CREATE TABLE IF NOT EXISTS prompts (prompt_id TEXT PRIMARY KEY, task_id TEXT NOT NULL,'
            ' context_id TEXT NOT NULL, envelope TEXT NOT NULL, answered INTEGER NOT NULL DEFAULT 0)'
        )
        self.db.execute('CREATE TABLE IF NOT EXISTS tasks (task_id TEXT PRIMARY KEY, body TEXT NOT NULL)')

    # prompts
    def new_prompt(self, task_id: str, context_id: str, faults: set[str]) -> dict[str, Any]:
        while True:  # never reuse an id, even one seen before a restart
            prompt_id = str(uuid.uuid4())
            if not self.db.execute('SELECT 1 FROM prompts WHERE prompt_id=?', (prompt_id,)).fetchone():
                break
        envelope: dict[str, Any] = {
            'prompt_id': prompt_id,
            'prompt': PROMPT_TEXT,
            'response_schema': RESPONSE_SCHEMA,
            'deadline': (datetime.now(timezone.utc) + timedelta(hours=1)).strftime('%Y-%m-%dT%H:%M:%SZ'),
            'allowed_responders': ['any'],
        }
        if 'envelope-extra-field' in faults:
            envelope['ui_hint'] = 'modal-dialog'
        self.db.execute(
            'INSERT INTO prompts (prompt_id, task_id, context_id, envelope) VALUES (?,?,?,?)',
            (prompt_id, task_id, context_id, json.dumps(envelope)),
        )
        return envelope

    def prompt(self, prompt_id: str) -> dict[str, Any] | None:
        row = self.db.execute(
            'SELECT task_id, context_id, envelope, answered FROM prompts WHERE prompt_id=?', (prompt_id,)
        ).fetchone()
        if not row:
            return None
        return {'task_id': row[0], 'context_id': row[1], 'envelope': json.loads(row[2]), 'answered': bool(row[3])}

    def open_prompt_for_task(self, task_id: str) -> dict[str, Any] | None:
        row = self.db.execute('SELECT envelope FROM prompts WHERE task_id=? AND answered=0', (task_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def claim(self, prompt_id: str) -> bool:
        """Marks the prompt answered; True for exactly one caller (the UPDATE is the arbiter)."""
        cur = self.db.execute('UPDATE prompts SET answered=1 WHERE prompt_id=? AND answered=0', (prompt_id,))
        return cur.rowcount == 1

    # tasks, as JSON text the adapter produced
    def save_task(self, task_id: str, body: str) -> None:
        self.db.execute('INSERT OR REPLACE INTO tasks (task_id, body) VALUES (?,?)', (task_id, body))

    def delete_task(self, task_id: str) -> None:
        self.db.execute('DELETE FROM tasks WHERE task_id=?', (task_id,))

    def all_tasks(self) -> list[str]:
        return [r[0] for r in self.db.execute('SELECT body FROM tasks ORDER BY rowid')]


def _pointer(parts: Any) -> str:
    return ''.join('/' + str(p).replace('~', '~0').replace('/', '~1') for p in parts)


_JSON_TYPES = {bool: 'boolean', int: 'integer', float: 'number', str: 'string', list: 'array', dict: 'object'}


def validation_errors(schema: dict[str, Any], payload: Any) -> list[dict[str, str]]:
    """Draft 2020-12 errors as [{path (JSON Pointer to the offending value), keyword, message}]."""
    out: list[dict[str, str]] = []
    errors = sorted(Draft202012Validator(schema).iter_errors(payload), key=lambda e: [str(p) for p in e.absolute_path])
    for err in errors:
        base = list(err.absolute_path)
        if err.validator == 'additionalProperties' and isinstance(err.instance, dict):
            allowed = set((err.schema or {}).get('properties', {}))
            for key in sorted(k for k in err.instance if k not in allowed):
                out.append({'path': _pointer(base + [key]), 'keyword': 'additionalProperties',
                            'message': f"additional property '{key}' is not permitted"})
        elif err.validator == 'required' and isinstance(err.instance, dict):
            for key in err.validator_value:
                if key not in err.instance:
                    out.append({'path': _pointer(base + [key]), 'keyword': 'required',
                                'message': f"missing required property '{key}'"})
        elif err.validator == 'type':
            got = _JSON_TYPES.get(type(err.instance), 'null')
            out.append({'path': _pointer(base), 'keyword': 'type',
                        'message': f'expected {err.validator_value}, got {got}'})
        else:
            out.append({'path': _pointer(base), 'keyword': str(err.validator), 'message': err.message})
    # jsonschema reports each missing required property (and each extra one) as its own error, and
    # each is expanded above from the whole list: keep one entry per (path, keyword).
    return list({(e['path'], e['keyword']): e for e in out}.values())


def judge_answer(store: Store, faults: set[str], answer: Any, task_id: Any) -> tuple[str, Any]:
    """The contract's verdict on a hitl_response_for, whatever the binding: ('conflict', data) for -32010,
    ('invalid', data) for -32011, ('accepted', None) once claimed (the SDK resumes the task), or
    ('repeat', prompt) for a repeat the duplicate-accepted variant lets through."""
    prompt_id = answer.get('prompt_id') if isinstance(answer, dict) else None
    prompt = store.prompt(prompt_id) if isinstance(prompt_id, str) else None
    if prompt is None or prompt['task_id'] != task_id or (prompt['answered'] and 'duplicate-accepted' not in faults):
        return 'conflict', {'extension': URI, 'prompt_id': prompt_id}
    if 'no-validation' not in faults:
        errors = validation_errors(prompt['envelope']['response_schema'], answer.get('payload'))
        extra = sorted(set(answer) - {'prompt_id', 'payload'})
        errors += [{'path': '/' + k, 'keyword': 'additionalProperties',
                    'message': f"hitl_response_for property '{k}' is not permitted"} for k in extra]
        if errors:
            return 'invalid', {'extension': URI, 'prompt_id': prompt_id, 'validation_errors': errors}
    return ('accepted', None) if store.claim(prompt_id) else ('repeat', prompt)
