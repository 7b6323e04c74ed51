"""Stream shapes the A2A spec allows and SDKs really send, applied to the SDK's SSE responses.

`task-snapshots`: every status update is sent as the whole Task instead (a correct shape: A2A
streams may carry Task objects). `headers-with-first-event`: the response head is held until the
first bytes of the body, as an SDK that writes nothing before its first event does (correct on its
own). `no-replay`: a resubscribe drops the task snapshot the SDK sends first, so the open prompt
is not replayed, while later events still flow (broken: the prompt must be replayed).
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable

SHAPE_FAULTS = {'task-snapshots', 'headers-with-first-event', 'no-replay'}
SUBSCRIBE_METHODS = {'SubscribeToTask', 'tasks/resubscribe'}

Send = Callable[[dict], Awaitable[None]]
# The task as the SDK's store has it, as a JSON-RPC result ({'task': ...} on the 1.0 wire).
TaskRenderer = Callable[[str, str], Awaitable[Any]]


def shaped(send: Send, faults: set[str], method: Any, render_task: TaskRenderer) -> Send:
    """`send` with the stream shapes of `faults` applied to an event-stream response; as is otherwise."""
    if not faults & SHAPE_FAULTS:
        return send
    held: list[dict] = []  # the response head, while headers-with-first-event holds it
    pending = b''  # an SSE event not yet complete
    state = {'stream': False, 'first': True}

    async def emit(body: bytes, more: bool) -> None:
        if held and not body and more:
            return  # nothing to say yet: the head stays held
        while held:
            await send(held.pop())
        await send({'type': 'http.response.body', 'body': body, 'more_body': more})

    async def reshape(event: bytes) -> bytes:
        lines = event.split(b'\r\n') if b'\r\n' in event else event.split(b'\n')
        data = [line[5:].lstrip() for line in lines if line.startswith(b'data:')]
        if not data:
            return event + b'\r\n\r\n'
        frame = json.loads(b'\n'.join(data))
        first, state['first'] = state['first'], False
        result = frame.get('result') if isinstance(frame, dict) else None
        if not isinstance(result, dict):
            return event + b'\r\n\r\n'
        if 'no-replay' in faults and first and method in SUBSCRIBE_METHODS and 'task' in result:
            return b''
        if 'task-snapshots' in faults and 'statusUpdate' in result:
            update = result['statusUpdate']
            task = (await render_task(update['taskId'], str(method))).get('task') or {}
            frame['result'] = {'task': {**task, 'id': update['taskId'], 'contextId': update.get('contextId', ''),
                                        'status': update['status']}}
        return b'data: ' + json.dumps(frame).encode() + b'\r\n\r\n'

    async def shaping_send(msg: dict) -> None:
        nonlocal pending
        if msg['type'] == 'http.response.start':
            types = [v for n, v in msg.get('headers', []) if n.lower() == b'content-type']
            state['stream'] = any(b'text/event-stream' in v for v in types)
            if state['stream'] and 'headers-with-first-event' in faults:
                held.append(msg)
                return
            return await send(msg)
        if msg['type'] != 'http.response.body' or not state['stream']:
            return await send(msg)
        pending += msg.get('body', b'')
        out = b''
        while True:
            cut = min((i for i in (pending.find(b'\r\n\r\n'), pending.find(b'\n\n')) if i >= 0), default=-1)
            if cut < 0:
                break
            sep = 4 if pending[cut:cut + 4] == b'\r\n\r\n' else 2
            event, pending = pending[:cut], pending[cut + sep:]
            out += await reshape(event)
        more = msg.get('more_body', False)
        if not more:
            out, pending = out + pending, b''
        await emit(out, more)

    return shaping_send
