"""DoS mitigations of the test peers, each removable by a fault flag (as the reference agent's are).

Measured on uvicorn 0.54 + h11 0.16 (both venvs) before these guards: a 2 MiB body was read whole;
JSON nested 10,000 deep was a 500 (RecursionError in json.loads); a body that is not UTF-8 was a
JSON-RPC -32603 (internal error); a 1 MiB header block was a 400 (h11's 16 KiB buffer bound, the
only guard uvicorn had); slowloris, a slow body and an idle connection were never cut (uvicorn arms
its keep-alive timer only after a response, and has no header or request timeout at all); 3,000
connections from one client were all kept open. So:

- RequestGuard (ASGI, outermost): a Content-Length over MAX_BODY_BYTES is a 413 before any of the
  body is read, and a body that grows past it while streaming is a 413 too (both close the
  connection); a body that is not UTF-8 or not JSON is JSON-RPC -32700 (HTTP 200, as the SDKs answer
  malformed JSON); JSON nested deeper than MAX_DEPTH is -32600 (HTTP 400) before anything parses it
  (except a request activating acceptance-criteria, whose layer answers deep JSON with its -32040).
- guarded_protocol(): uvicorn's h11 protocol with what uvicorn lacks: a headers timeout (the head of
  a request within HEADERS_TIMEOUT_S of its first byte, or of the connection's opening) and a request
  timeout (the whole request, body included, within REQUEST_TIMEOUT_S), answered with 408 and a
  close; and a bound on open connections per client address and in total, sockets beyond it closed
  at once (uvicorn's own limit_concurrency answers 503 without Retry-After, a 5xx to an attacker).
- serve_config(): h11's incomplete-event bound (the request head) kept at 16 KiB.

Flags: no-body-limit, parse-errors-500, no-depth-limit, no-request-timeouts, no-header-limit,
no-connection-limit.
"""

from __future__ import annotations

import os
import json
from itertools import accumulate
import re
from typing import Any, Callable

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from hitl_http import replaying

FAULTS = {
    'no-body-limit',  # no Content-Length pre-check and no size bound: every body is read whole
    'parse-errors-500',  # a body that is not JSON / not UTF-8 gets a 500
    'no-depth-limit',  # no nesting bound: deep JSON reaches json.loads (a RecursionError, a 500)
    'no-request-timeouts',  # no headers / request timeouts: slow and idle clients are held forever
    'no-header-limit',  # request heads up to 64 MiB accepted (h11's bound raised)
    'no-connection-limit',  # no per-client / total bound on open connections
}

MAX_BODY_BYTES = 1024 * 1024
MAX_DEPTH = 128
# Tests that only need the guards to exist shorten them through the environment (the DoS verdict
# tests: a slow body is then cut after 3 s, not 15 s); the defaults are the reference agent's.
HEADERS_TIMEOUT_S = float(os.environ.get('A2A_PEER_HEADERS_TIMEOUT_S', '5.0'))
REQUEST_TIMEOUT_S = float(os.environ.get('A2A_PEER_REQUEST_TIMEOUT_S', '15.0'))
MAX_HEADER_BYTES = 16 * 1024
UNLIMITED_HEADER_BYTES = 64 * 1024 * 1024
MAX_CONNECTIONS_PER_CLIENT = 512
MAX_CONNECTIONS = 4096

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_DELTA = [1 if c in b'[{' else -1 if c in b']}' else 0 for c in range(256)]
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b'[]{}')


def json_depth(body: bytes) -> int:
    """Nesting depth of a JSON text without parsing it (strings removed, brackets counted): at C speed
    for the most part, so a megabyte of brackets costs milliseconds, not a recursion."""
    brackets = _STRING.sub(b'', body).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_DELTA.__getitem__, brackets)), default=0)


def _rpc_error(code: int, message: str) -> bytes:
    return json.dumps({'jsonrpc': '2.0', 'id': None, 'error': {'code': code, 'message': message}}).encode()


class RequestGuard:
    """Outermost ASGI middleware: bounds the body and refuses what no JSON-RPC handler should parse."""

    def __init__(self, app: Callable, faults: set[str], depth_owner: str | None = None) -> None:
        """`depth_owner`: an extension URI whose activated requests keep that extension's own error for
        deep JSON (acceptance-criteria: -32040 'request nests too deeply', which its layer answers)."""
        self.app, self.faults = app, faults
        self.limit = None if 'no-body-limit' in faults else MAX_BODY_BYTES
        self.depth_owner = depth_owner.encode() if depth_owner else None

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope['type'] != 'http' or scope['method'] in ('GET', 'HEAD', 'OPTIONS', 'DELETE'):
            return await self.app(scope, receive, send)
        length = next((v for n, v in scope['headers'] if n == b'content-length'), None)
        if self.limit is not None and length is not None and length.isdigit() and int(length) > self.limit:
            return await self._reply(send, 413, _rpc_error(-32600, f'request body exceeds {self.limit} bytes'), close=True)
        body = bytearray()
        while True:
            msg = await receive()
            if msg['type'] == 'http.disconnect':
                return
            body += msg.get('body', b'')
            if self.limit is not None and len(body) > self.limit:
                return await self._reply(send, 413, _rpc_error(-32600, f'request body exceeds {self.limit} bytes'), close=True)
            if not msg.get('more_body'):
                break
        owned = self.depth_owner is not None and any(
            n in (b'a2a-extensions', b'x-a2a-extensions') and self.depth_owner in v for n, v in scope['headers'])
        refusal = self._refusal(bytes(body), check_depth=not owned)
        if refusal is not None:
            return await self._reply(send, *refusal)
        await self.app(scope, replaying(receive, bytes(body)), send)

    def _refusal(self, body: bytes, check_depth: bool) -> tuple[int, bytes] | None:
        try:
            body.decode('utf-8')
            unparsable = None
        except UnicodeDecodeError:
            unparsable = 'request body is not valid UTF-8'
        if unparsable is None and check_depth and 'no-depth-limit' not in self.faults and json_depth(body) > MAX_DEPTH:
            return 400, _rpc_error(-32600, f'request nests deeper than {MAX_DEPTH} levels')
        if unparsable is None:
            try:
                json.loads(body)
            except RecursionError:  # no-depth-limit, or the depth owner's request: the next layer decides
                return None
            except ValueError:
                unparsable = 'request body is not valid JSON'
        if unparsable is None:
            return None
        if 'parse-errors-500' in self.faults:
            return 500, b'Internal Server Error'
        return 200, _rpc_error(-32700, unparsable)

    @staticmethod
    async def _reply(send: Callable, status: int, body: bytes, close: bool = False) -> None:
        headers = [(b'content-type', b'application/json' if body.startswith(b'{') else b'text/plain'),
                   (b'content-length', str(len(body)).encode())]
        if close:  # the rest of the body is never read: the connection cannot carry another request
            headers.append((b'connection', b'close'))
        await send({'type': 'http.response.start', 'status': status, 'headers': headers})
        await send({'type': 'http.response.body', 'body': body})


_TIMEOUT_REPLY = b'HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'


def guarded_protocol(faults: set[str]) -> type[H11Protocol]:
    """uvicorn's h11 protocol with a headers timeout, a request timeout and connection bounds."""
    timeouts = 'no-request-timeouts' not in faults
    bounded = 'no-connection-limit' not in faults
    per_client: dict[str, int] = {}

    class GuardedH11Protocol(H11Protocol):
        _deadline: Any = None
        _counted: str | None = None

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if bounded:
                host = self.client[0] if self.client else ''
                if per_client.get(host, 0) >= MAX_CONNECTIONS_PER_CLIENT or len(self.connections) > MAX_CONNECTIONS:
                    transport.abort()  # beyond the bound: closed at once, nothing read
                    return
                per_client[host] = per_client.get(host, 0) + 1
                self._counted = host
            self._arm(HEADERS_TIMEOUT_S, 'headers')

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted is not None:
                left = per_client.get(self._counted, 1) - 1
                if left > 0:
                    per_client[self._counted] = left
                else:
                    per_client.pop(self._counted, None)
                self._counted = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            idle_before = self.conn.their_state is h11.IDLE
            super().data_received(data)
            state = self.conn.their_state
            if state is h11.IDLE and idle_before and self._phase != 'headers-started':
                # The first byte of a request head: the head is due HEADERS_TIMEOUT_S from here, the
                # whole request REQUEST_TIMEOUT_S from here.
                self._first_byte = self.loop.time()
                self._arm(HEADERS_TIMEOUT_S, 'headers-started')
            elif state is h11.SEND_BODY and self._phase != 'body':
                since = self.loop.time() - (self._first_byte if self._first_byte is not None else self.loop.time())
                self._arm(max(0.0, REQUEST_TIMEOUT_S - since), 'body')
            elif state not in (h11.IDLE, h11.SEND_BODY):
                self._disarm()

        def on_response_complete(self) -> None:
            self._disarm()  # uvicorn's keep-alive timer takes over until the next request's first byte
            super().on_response_complete()

        _phase: str | None = None
        _first_byte: float | None = None

        def _arm(self, seconds: float, phase: str) -> None:
            if not timeouts:
                return
            self._disarm()
            self._phase = phase
            self._deadline = self.loop.call_later(seconds, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline, self._phase = None, None

        def _expire(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self._phase != 'headers' and (self.cycle is None or not self.cycle.response_started):
                self.transport.write(_TIMEOUT_REPLY)
            self.transport.close()

    return GuardedH11Protocol


def serve_config(faults: set[str]) -> dict[str, Any]:
    """uvicorn.Config keyword arguments for these guards."""
    return {
        'http': guarded_protocol(faults),
        'h11_max_incomplete_event_size': UNLIMITED_HEADER_BYTES if 'no-header-limit' in faults else MAX_HEADER_BYTES,
    }
