"""HTTP half of the test peers: the ASGI middleware in front of either SDK's JSON-RPC route, the
contract's error bodies, and the listener (one JSON line once bound, clean exit on SIGTERM)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any, Awaitable, Callable

import uvicorn

import stream_shapes
from hitl_core import HEADERS, Store, URI, judge_answer


def rpc_error(req_id: Any, code: int, message: str, data: Any) -> bytes:
    return json.dumps({'jsonrpc': '2.0', 'id': req_id, 'error': {'code': code, 'message': message, 'data': data}}).encode()


def sdk_style_error(req_id: Any, code: int, reason: str, meta: dict[str, Any]) -> bytes:
    """The shape of an error the 1.x SDK renders itself: google.rpc ErrorInfo details, string metadata."""
    info = {'@type': 'type.googleapis.com/google.rpc.ErrorInfo', 'reason': reason, 'domain': 'a2a-protocol.org',
            'metadata': {k: v if isinstance(v, str) else json.dumps(v) for k, v in meta.items()}}
    return rpc_error(req_id, code, reason, [info])


# The HTTP+JSON variant (--binding http+json): the send routes by path, their body the send params.
REST_SEND = {'/message:send': 'SendMessage', '/message:stream': 'SendStreamingMessage'}
def rest_error(status: int, message: str, data: dict) -> bytes:
    """An AIP-193 error body (A2A 1.0 HTTP+JSON) keeping the contract's object in error.data."""
    info = {'@type': 'type.googleapis.com/google.rpc.ErrorInfo', 'reason': message.upper(),
            'domain': 'agentic-sandbox.aiwg.io', 'metadata': {'extension': URI}}
    return json.dumps({'error': {'code': status, 'status': 'ABORTED' if status == 409 else 'INVALID_ARGUMENT',
                                 'message': message, 'details': [info], 'data': data}}).encode()


SEND_METHODS = {'SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream'}
SUBSCRIBE_METHODS = {'SubscribeToTask', 'tasks/resubscribe'}
STREAM_METHODS = {'SendStreamingMessage', 'message/stream'}

Asgi = Callable[[dict, Callable, Callable], Awaitable[None]]
# Renders "the task as it is now" as a JSON-RPC result for the duplicate-accepted variant.
TaskRenderer = Callable[[str, str], Awaitable[Any]]



def _method(body: bytes) -> Any:
    """The JSON-RPC method of a request body, or None when it is not one."""
    try:
        req = json.loads(body)
    except ValueError:
        return None
    return req.get('method') if isinstance(req, dict) else None


def _answer_request(body: bytes, rest: str | None = None) -> tuple[dict, dict, Any] | None:
    """(request, message, hitl_response_for) of a send carrying a hitl-prompt/v1 answer, else None.
    `rest`: the HTTP+JSON method of the route the body came to (its body is the params)."""
    try:
        req = json.loads(body)
        if rest:
            req = {'id': None, 'method': rest, 'params': req}
        message = (req.get('params') or {}).get('message') or {}
        meta = message.get('metadata') or {}
    except (ValueError, AttributeError):
        return None
    if not isinstance(req, dict) or req.get('method') not in SEND_METHODS or not isinstance(meta, dict):
        return None
    answer = meta.get('hitl_response_for')
    return None if answer is None else (req, message, answer)


def _status_202(send: Callable) -> Callable:
    """The answer-202 variant: the accepted answer's reply goes out as 202 instead of 200."""
    async def send_202(msg: dict) -> None:
        if msg['type'] == 'http.response.start' and msg['status'] == 200:
            msg = dict(msg, status=202)
        await send(msg)
    return send_202


def replaying(receive: Callable[[], Awaitable[dict]], body: bytes) -> Callable[[], Awaitable[dict]]:
    """An ASGI receive that hands the app the body already read once, then the connection's own."""
    sent = False

    async def replay() -> dict:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {'type': 'http.request', 'body': body, 'more_body': False}

    return replay

class HitlMiddleware:
    """ASGI middleware in front of the SDK's JSON-RPC route.

    It does what the SDKs do not: reads activation from either header (A2A-Extensions of 1.0 or
    X-A2A-Extensions of 0.3) and hands both to the SDK, echoes the activated URI on every response
    (streams included), and decides answers (409 / 422 with the contract's error.data, or one
    atomic claim) before the SDK sees them, so the HTTP status is the spec's, not the SDK's 200.
    """

    def __init__(self, app: Asgi, store: Store, faults: set[str], render_task: TaskRenderer) -> None:
        self.app, self.store, self.faults, self.render_task = app, store, faults, render_task

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope['type'] != 'http':
            return await self.app(scope, receive, send)
        requested: list[str] = []
        for name, value in scope['headers']:
            if name.lower() in HEADERS:
                requested += [v.strip() for v in value.decode('latin-1').split(',') if v.strip()]
        activated = URI in requested or 'envelope-without-activation' in self.faults
        if requested:  # both SDK generations see the request, whichever header the client used
            joined = ', '.join(dict.fromkeys(requested)).encode()
            headers = [(n, v) for n, v in scope['headers'] if n.lower() not in HEADERS]
            scope = dict(scope, headers=headers + [(h, joined) for h in HEADERS])
        echo = URI in requested and 'no-extension-echo' not in self.faults

        async def send_echo(msg: dict) -> None:
            if echo and msg['type'] == 'http.response.start':
                msg = dict(msg, headers=list(msg.get('headers', [])) + [(h, URI.encode()) for h in HEADERS])
            await send(msg)

        if 'silent-resubscribe' in self.faults and scope['path'].endswith(':subscribe'):
            return await self._silent_stream(receive, send_echo)
        if scope['method'] != 'POST':
            return await self.app(scope, receive, send_echo)
        body = b''
        while True:
            msg = await receive()
            body += msg.get('body', b'')
            if not msg.get('more_body'):
                break
        send_echo = stream_shapes.shaped(send_echo, self.faults, _method(body), self.render_task)
        if 'silent-resubscribe' in self.faults and _method(body) in SUBSCRIBE_METHODS:
            return await self._silent_stream(receive, send_echo)
        verdict = await self._decide(body, activated, REST_SEND.get(scope['path']))
        if verdict is not None:
            status, out, content_type = verdict
            await send_echo({'type': 'http.response.start', 'status': status,
                             'headers': [(b'content-type', content_type), (b'content-length', str(len(out)).encode())]})
            await send_echo({'type': 'http.response.body', 'body': out})
            return
        if 'answer-202' in self.faults and _answer_request(body, REST_SEND.get(scope['path'])) is not None:
            send_echo = _status_202(send_echo)  # the SDK renders the one accepted answer
        await self.app(scope, replaying(receive, body), send_echo)

    async def _decide(self, body: bytes, activated: bool, rest: str | None) -> tuple[int, bytes, bytes] | None:
        """None: let the SDK handle it (no answer, or the one accepted). Otherwise (HTTP status, body,
        content type). `rest`: the HTTP+JSON method of the route, whose body is the params (None: JSON-RPC)."""
        found = _answer_request(body, rest)
        if found is None:
            return None
        req, message, answer = found
        req_id = req.get('id')
        verdict, detail = judge_answer(self.store, self.faults, answer, message.get('taskId') or message.get('task_id'))
        if verdict == 'conflict':
            return self._reject(req_id, 409, -32010, 'hitl_already_answered_or_unknown', detail,
                                bool(rest))
        if verdict == 'invalid':
            return self._reject(req_id, 422, -32011, 'hitl_response_invalid', detail, bool(rest))
        if verdict == 'accepted':
            return None  # the one accepted answer: the SDK resumes the task
        # Only the duplicate-accepted variant gets here: "accept" the repeat with the task as it is.
        prompt = detail
        result = await self.render_task(prompt['task_id'], req['method'])
        reply = json.dumps(result if rest else {'jsonrpc': '2.0', 'id': req_id, 'result': result}).encode()
        if req['method'] in STREAM_METHODS:
            return 200, b'data: ' + reply + b'\n\n', b'text/event-stream'
        return 200, reply, b'application/json'

    async def _silent_stream(self, receive: Callable, send: Callable) -> None:
        """The silent-resubscribe variant: 200 and an event stream that stays open and says nothing
        until the client goes away (every resubscribe; the task it names is not even looked up)."""
        await send({'type': 'http.response.start', 'status': 200,
                    'headers': [(b'content-type', b'text/event-stream'), (b'cache-control', b'no-cache')]})
        await send({'type': 'http.response.body', 'body': b'', 'more_body': True})
        while (await receive())['type'] != 'http.disconnect':
            pass

    def _reject(self, req_id: Any, status: int, code: int, message: str, data: dict,
                rest: bool) -> tuple[int, bytes, bytes]:
        if rest:
            return status, rest_error(status, message, data), b'application/json'
        if 'sdk-errors' in self.faults:
            return 200, sdk_style_error(req_id, code, message, data), b'application/json'
        return status, rpc_error(req_id, code, message, data), b'application/json'


async def serve(app: Asgi, port: int, options: dict[str, Any] | None = None, announce: dict | None = None) -> None:
    """Listens on 127.0.0.1:port, prints the one JSON line once bound, returns on SIGTERM/SIGINT.
    `options`: more uvicorn.Config arguments (dos_guards.serve_config: the protocol class, h11's bound);
    `announce`: more keys for the JSON line (the gRPC variant's `grpc` address)."""
    config = uvicorn.Config(app, host='127.0.0.1', port=port, log_level='warning', timeout_graceful_shutdown=1,
                            lifespan='off', **(options or {}))
    server = uvicorn.Server(config)
    # uvicorn shuts down gracefully on SIGTERM, then re-raises it under the handler it found: a no-op
    # handler here makes that a normal exit (status 0) instead of death by signal (143).
    signal.signal(signal.SIGTERM, lambda *_: None)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # raises the bind error, if any
            raise SystemExit(1)
        await asyncio.sleep(0.02)
    bound = server.servers[0].sockets[0].getsockname()[1]
    sys.stdout.write(json.dumps({'url': f'http://127.0.0.1:{bound}/', **(announce or {}), 'pid': os.getpid()}) + '\n')
    sys.stdout.flush()
    await task
