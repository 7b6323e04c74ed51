"""hitl-prompt/v1 (and acceptance-criteria) test peer: `python agent.py --port N --db PATH [--fault NAME]...
[--binding grpc --grpc-port M]`

Runs on whichever official a2a-sdk the interpreter has installed: 1.x speaks the A2A 1.0 wire,
0.3.x the A2A 0.3 wire; `--binding grpc` (1.x) serves A2A over gRPC only (sdk_v1_grpc.py). Prints one
JSON line `{"url", "grpc"?, "pid"}` once listening on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import sys
from importlib.metadata import version

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import acceptance_core as acc  # noqa: E402
import bearer_auth  # noqa: E402
import dos_guards  # noqa: E402
import hitl_core as core  # noqa: E402
import hitl_http  # noqa: E402
import stream_shapes  # noqa: E402


async def main() -> None:
    args = core.parse_args(extra_faults=acc.FAULTS | dos_guards.FAULTS | stream_shapes.SHAPE_FAULTS)
    faults = set(args.fault)
    store = core.Store(':memory:' if 'volatile' in faults else args.db)
    if args.binding == 'grpc':  # gRPC only (a2a-sdk 1.x): HTTP serves the card alone, without the DoS guards
        import sdk_v1_grpc
        app, grpc_server, target = await sdk_v1_grpc.build(args.port, args.grpc_port, store, faults)
        try:
            return await hitl_http.serve(app, args.port, announce={'grpc': target})
        finally:
            await grpc_server.stop(0)
    if version('a2a-sdk').startswith('0.'):
        import sdk_v03 as sdk
    else:
        import sdk_v1 as sdk
    app = await sdk.build_app(args.port, store, faults, args.binding)
    if bearer_auth.token():
        app = bearer_auth.BearerGuard(app, bearer_auth.token())
    # The DoS guards sit outside everything (bodies bounded before any middleware reads them) and in
    # uvicorn's protocol (timeouts and connection bounds uvicorn does not have).
    await hitl_http.serve(dos_guards.RequestGuard(app, faults, depth_owner=acc.URI), args.port, dos_guards.serve_config(faults))


if __name__ == '__main__':
    asyncio.run(main())
