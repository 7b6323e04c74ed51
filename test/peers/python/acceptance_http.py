"""HTTP half of the peers' acceptance-criteria extension: an ASGI layer in front of the hitl one.

It echoes the URI when the request activated it, refuses invalid criteria on the creating request
(-32040, no task), and decides every decision before the SDK sees it: malformed (-32044), not
entitled (-32043), or not pending (-32042); the one that wins the conditional UPDATE goes on to the
SDK with its outcome. It also fires pending deadlines (acceptanceTimeoutSeconds), at startup too.
Extension errors on JSON-RPC travel with HTTP 200, `data` = {extension, reason, ...}.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any, Awaitable, Callable

import acceptance_core as acc
from acceptance_flow import State
from hitl_core import HEADERS
from hitl_http import SEND_METHODS, STREAM_METHODS, Asgi, replaying, rpc_error

TaskRenderer = Callable[[str, str], Awaitable[Any]]
# (task_id, 'completed' | 'failed', status text, status metadata): a transition no request carries,
# written to the task store directly; a no-op on a task that is already terminal.
TaskSettler = Callable[[str, str, str, dict], Awaitable[None]]
# Whether the task is parked with the pending flag on its status message.
PendingProbe = Callable[[str], Awaitable[bool]]
EXPIRY_POLL_S = 0.2


def _merge_echo(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """Adds the URI to the echo headers (one line per name, a comma-separated list)."""
    out, seen = [], set()
    for name, value in headers:
        if name.lower() in HEADERS:
            value = value + b', ' + acc.URI.encode()
            seen.add(name.lower())
        out.append((name, value))
    return out + [(h, acc.URI.encode()) for h in HEADERS if h not in seen]


# Hand-overs to the executor are popped when it runs; one the SDK never runs (a request it refused)
# would stay: the oldest go first past this many.
MAX_HANDOVERS = 10_000


def _bounded_put(d: dict, key: Any, value: Any) -> None:
    d[key] = value
    while len(d) > MAX_HANDOVERS:
        d.pop(next(iter(d)))


class AcceptanceMiddleware:
    def __init__(self, app: Asgi, state: State, render_task: TaskRenderer, settle: TaskSettler,
                 parked_pending: PendingProbe) -> None:
        self.app, self.state, self.render_task, self.settle = app, state, render_task, settle
        self.parked_pending = parked_pending
        self.expiry = asyncio.create_task(self._expire_loop())  # also fires deadlines missed while down

    async def _recover(self) -> None:
        """At startup: a decision whose UPDATE committed but whose task write a kill -9 cut off is carried
        out now; a retry cut off the same way parks the task pending again (the rejection stays counted)."""
        for task_id, gate_state in self.state.gates.decided():
            done = 'completed' if gate_state == 'accepted' else 'failed'
            await self.settle(task_id, done, f'Acceptance {"accepted" if done == "completed" else "failed"} (recovered'
                              ' after a restart).', {})
        for task_id in self.state.gates.running():
            gate = self.state.gates.get(task_id)
            if gate and await self.parked_pending(task_id):
                self.state.gates.park(task_id, gate['criteria']['acceptanceTimeoutSeconds'])

    async def _expire_loop(self) -> None:
        await self._recover()
        while 'acceptance-no-timeout' not in self.state.faults:
            for task_id in self.state.gates.expire(time.time()):
                await self.settle(task_id, 'failed', 'Acceptance failed: no decision within acceptanceTimeoutSeconds.', {})
            await asyncio.sleep(EXPIRY_POLL_S)

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope['type'] != 'http':
            return await self.app(scope, receive, send)
        requested: list[str] = []
        authorization = None
        for name, value in scope['headers']:
            if name.lower() in HEADERS:
                requested += [v.strip() for v in value.decode('latin-1').split(',')]
            elif name.lower() == b'authorization':
                authorization = value.decode('latin-1')
        activated = acc.URI in requested
        echo = activated and 'no-extension-echo' not in self.state.faults

        async def send_echo(msg: dict) -> None:
            if echo and msg['type'] == 'http.response.start':
                msg = dict(msg, headers=_merge_echo(list(msg.get('headers', []))))
            await send(msg)

        if scope['method'] != 'POST':
            return await self.app(scope, receive, send_echo)
        body = b''
        while True:
            msg = await receive()
            body += msg.get('body', b'')
            if not msg.get('more_body'):
                break
        verdict = await self._decide(body, activated, authorization)
        if isinstance(verdict, bytes):  # the request goes on, rewritten (acceptance-drops-feedback)
            body, verdict = verdict, None
        if verdict is not None:
            status, out, content_type = verdict
            await send_echo({'type': 'http.response.start', 'status': status,
                             'headers': [(b'content-type', content_type), (b'content-length', str(len(out)).encode())]})
            await send_echo({'type': 'http.response.body', 'body': out})
            return
        await self.app(scope, replaying(receive, body), send_echo)

    def _error(self, req_id: Any, code: int, reason: str, **extra: Any) -> tuple[int, bytes, bytes]:
        data = {'extension': acc.URI, 'reason': reason, **extra}
        return 200, rpc_error(req_id, code, acc.MESSAGES[code], data), b'application/json'

    async def _decide(self, body: bytes, activated: bool,
                      authorization: str | None) -> tuple[int, bytes, bytes] | bytes | None:
        """None: let the inner layers handle it; bytes: the same, with this request body instead.
        Otherwise (HTTP status, body, content type)."""
        try:
            req = json.loads(body)
        except RecursionError:  # deeper than any criteria we would accept
            return self._error(None, acc.CRITERIA_INVALID, 'request nests too deeply') if activated else None
        except ValueError:
            return None
        if not isinstance(req, dict) or req.get('method') not in SEND_METHODS:
            return None
        params = req.get('params')
        message = params.get('message') if isinstance(params, dict) else None
        if not isinstance(message, dict):
            return None
        meta = message.get('metadata') or {}
        if not isinstance(meta, dict):
            return None
        req_id, message_id = req.get('id'), message.get('messageId') or message.get('message_id')
        task_id = message.get('taskId') or message.get('task_id')
        if not task_id:  # a creating request: the gate is fixed here, or the request is refused
            if not activated:
                return None
            try:
                setup = {'criteria': acc.validate_criteria(meta.get(acc.CRITERIA_KEY), self.state.faults),
                         'deciders': acc.validate_deciders(meta.get(acc.DECIDERS_KEY)),
                         'creator': acc.principal(authorization), 'attempts': acc.script_attempts(message.get('parts'))}
            except acc.Invalid as err:
                return self._error(req_id, acc.CRITERIA_INVALID, str(err))
            _bounded_put(self.state.setups, message_id, setup)
            return None
        if acc.DECISION_KEY not in meta or not activated:
            return None  # a plain message (a decision without activation is one too)
        try:
            decision = acc.parse_decision(meta[acc.DECISION_KEY])
        except acc.Invalid as err:
            return self._error(req_id, acc.DECISION_INVALID, str(err), taskId=task_id)
        gate = self.state.gates.get(task_id)
        # Whatever the SDK would refuse is refused here, before the decision is applied to the gate:
        # a decision applied to the gate but never carried out on the task would strand it.
        if not isinstance(message_id, str) or not message_id:
            return self._error(req_id, acc.DECISION_INVALID, 'a decision needs a messageId', taskId=task_id)
        context_id = message.get('contextId') or message.get('context_id')
        if gate is not None and context_id and context_id != gate['context_id']:
            return self._error(req_id, acc.DECISION_INVALID, "contextId is not the task's", taskId=task_id)
        if gate is None:
            return self._error(req_id, acc.DECISION_CONFLICT, 'the task has no acceptance gate', taskId=task_id)
        if 'acceptance-ignores-authorization' not in self.state.faults:
            who = acc.principal(authorization)
            if who != gate['creator'] and who not in gate['deciders']:
                return self._error(req_id, acc.DECISION_UNAUTHORIZED,
                                   'only the task creator or a principal it named may decide', taskId=task_id)
        outcome = self.state.gates.decide(task_id, decision)
        if outcome is not None:
            if 'crash-after-decision' in self.state.faults:
                os._exit(137)
            _bounded_put(self.state.outcomes, message_id, outcome)
            if 'acceptance-drops-feedback' in self.state.faults and decision['action'] == 'reject':
                message['parts'] = [dict(p, text='') if isinstance(p, dict) and 'text' in p else p
                                    for p in message.get('parts') or []]
                return json.dumps(req).encode()  # the feedback never reaches the task's history
            return None  # the one winning decision: the SDK carries it out on the task
        if 'acceptance-accepts-second-decision' in self.state.faults and gate['state'] in ('accepted', 'failed'):
            result = await self.render_task(task_id, req['method'])
            reply = json.dumps({'jsonrpc': '2.0', 'id': req_id, 'result': result}).encode()
            if req['method'] in STREAM_METHODS:
                return 200, b'data: ' + reply + b'\n\n', b'text/event-stream'
            return 200, reply, b'application/json'
        now = self.state.gates.get(task_id)
        return self._error(req_id, acc.DECISION_CONFLICT,
                           f'the task is not pending acceptance (gate {now["state"] if now else "gone"})', taskId=task_id)
