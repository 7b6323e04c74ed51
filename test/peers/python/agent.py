"""hitl-prompt/v1 (and acceptance-criteria) test peer: `python agent.py --port N --db PATH [--fault NAME]...`

Runs on whichever official a2a-sdk the interpreter has installed: 1.x speaks the A2A 1.0 wire,
0.3.x the A2A 0.3 wire. Prints one JSON line `{"url", "pid"}` once listening on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import sys
from importlib.metadata import version

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import acceptance_core as acc  # noqa: E402
import dos_guards  # noqa: E402
import hitl_core as core  # noqa: E402
import hitl_http  # noqa: E402
import stream_shapes  # noqa: E402


async def main() -> None:
    args = core.parse_args(extra_faults=acc.FAULTS | dos_guards.FAULTS | stream_shapes.SHAPE_FAULTS)
    faults = set(args.fault)
    store = core.Store(':memory:' if 'volatile' in faults else args.db)
    if version('a2a-sdk').startswith('0.'):
        import sdk_v03 as sdk
    else:
        import sdk_v1 as sdk
    app = await sdk.build_app(args.port, store, faults)
    # The DoS guards sit outside everything (bodies bounded before any middleware reads them) and in
    # uvicorn's protocol (timeouts and connection bounds uvicorn does not have).
    await hitl_http.serve(dos_guards.RequestGuard(app, faults, depth_owner=acc.URI), args.port, dos_guards.serve_config(faults))


if __name__ == '__main__':
    asyncio.run(main())
