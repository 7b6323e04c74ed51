"""The bearer-auth variant: with A2A_PEER_BEARER_TOKEN set, every request but the agent card's GET
needs `Authorization: Bearer <that token>` (401 otherwise), and the 1.x card declares a bearer
securitySchemes entry and a requirement naming it. Unset, the peer is open as before."""

from __future__ import annotations

import hmac
import json
import os
from typing import Any, Callable

TOKEN_ENV = 'A2A_PEER_BEARER_TOKEN'
CARD_PATH = '/.well-known/agent-card.json'
Asgi = Callable[..., Any]


def token() -> str | None:
    return os.environ.get(TOKEN_ENV) or None


def card_security(card: Any) -> None:
    """Adds the bearer scheme and its requirement to a 1.x AgentCard (proto) in place."""
    from a2a.types.a2a_pb2 import HTTPAuthSecurityScheme, SecurityRequirement, SecurityScheme, StringList
    card.security_schemes['bearer'].CopyFrom(
        SecurityScheme(http_auth_security_scheme=HTTPAuthSecurityScheme(scheme='Bearer', bearer_format='opaque')))
    card.security_requirements.append(SecurityRequirement(schemes={'bearer': StringList()}))


class BearerGuard:
    """ASGI middleware: 401 with `WWW-Authenticate: Bearer` for any HTTP request without the token."""

    def __init__(self, app: Asgi, expected: str) -> None:
        self.app, self.expected = app, f'Bearer {expected}'.encode()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope['type'] != 'http' or (scope['method'] == 'GET' and scope['path'] == CARD_PATH):
            return await self.app(scope, receive, send)
        given = [v for k, v in scope.get('headers', []) if k == b'authorization']
        if len(given) == 1 and hmac.compare_digest(given[0], self.expected):
            return await self.app(scope, receive, send)
        body = json.dumps({'error': 'unauthorized', 'detail': 'a bearer token is required'}).encode()
        await send({'type': 'http.response.start', 'status': 401,
                    'headers': [(b'content-type', b'application/json'), (b'www-authenticate', b'Bearer'),
                                (b'content-length', str(len(body)).encode())]})
        await send({'type': 'http.response.body', 'body': body})
