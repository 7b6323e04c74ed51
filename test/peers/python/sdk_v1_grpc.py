"""The gRPC-only variant of the a2a-sdk 1.x peer: the SDK's own gRPC server (GrpcHandler) in front
of the same executor and durable task store; HTTP serves only the agent card, which names the gRPC
endpoint (`GRPC`, host:port) as its one interface.

What the JSON-RPC variant's HTTP middleware does is done here in a GrpcHandler subclass: the echo
of the activated extension in the response's initial metadata, and the contract's verdict on an
answer (hitl_core.judge_answer) before the SDK sees it. Its errors mirror the reference agent's gRPC
binding: -32010 ABORTED, -32011 INVALID_ARGUMENT, each with an ErrorInfo of the extension's own
(reason HITL_ALREADY_ANSWERED_OR_UNKNOWN / HITL_RESPONSE_INVALID) and the contract's object as a
google.protobuf.Struct detail.
"""

from __future__ import annotations

from typing import Any

import grpc
import grpc.aio
from google.protobuf import any_pb2, struct_pb2
from google.protobuf.json_format import MessageToDict
from google.rpc import error_details_pb2, status_pb2
from starlette.applications import Starlette

import a2a.types.a2a_pb2_grpc as a2a_grpc
from a2a.server.context import ServerCallContext
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.request_handlers.grpc_handler import GrpcHandler
from a2a.server.routes import create_agent_card_routes
from a2a.types.a2a_pb2 import SendMessageResponse, StreamResponse

import acceptance_flow as flow
import hitl_core as core
import sdk_v1
from acceptance_store import Gates

REJECTIONS = {
    'conflict': (grpc.StatusCode.ABORTED, 'hitl_already_answered_or_unknown'),
    'invalid': (grpc.StatusCode.INVALID_ARGUMENT, 'hitl_response_invalid'),
}


def _requested(context: grpc.aio.ServicerContext) -> list[str]:
    values = [v if isinstance(v, str) else v.decode() for k, v in context.invocation_metadata() or ()
              if k.lower() in ('a2a-extensions', 'x-a2a-extensions')]
    return [u.strip() for v in values for u in v.split(',') if u.strip()]


class HitlGrpcHandler(GrpcHandler):
    def __init__(self, handler: DefaultRequestHandler, store: core.Store, faults: set[str], task_store: Any) -> None:
        super().__init__(handler)
        self.store, self.faults, self.task_store = store, faults, task_store

    async def _echo(self, context: grpc.aio.ServicerContext) -> None:
        if core.URI in _requested(context) and 'no-extension-echo' not in self.faults:
            await context.send_initial_metadata((('a2a-extensions', core.URI),))

    async def _judge(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        """None: the SDK handles the request. Otherwise the task to answer a tolerated repeat with."""
        answer = MessageToDict(request.message.metadata).get('hitl_response_for')
        if answer is None:
            return None
        verdict, detail = core.judge_answer(self.store, self.faults, answer, request.message.task_id)
        if verdict == 'accepted':
            return None
        if verdict == 'repeat':
            return await self.task_store.get(detail['task_id'], ServerCallContext())
        code, message = REJECTIONS[verdict]
        info = error_details_pb2.ErrorInfo(reason=message.upper(), domain='agentic-sandbox.aiwg.io',
                                           metadata={'extension': core.URI})
        data = struct_pb2.Struct()
        data.update(detail)
        status = status_pb2.Status(code=code.value[0], message=message)
        for detail_message in (info, data):
            packed = any_pb2.Any()
            packed.Pack(detail_message)
            status.details.append(packed)
        context.set_trailing_metadata((('grpc-status-details-bin', status.SerializeToString()),))
        await context.abort(code, message)

    async def SendMessage(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        await self._echo(context)
        repeat = await self._judge(request, context)
        if repeat is not None:
            return SendMessageResponse(task=repeat)
        return await super().SendMessage(request, context)

    async def SendStreamingMessage(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        await self._echo(context)
        repeat = await self._judge(request, context)
        if repeat is not None:
            yield StreamResponse(task=repeat)
            return
        async for item in super().SendStreamingMessage(request, context):
            yield item

    async def SubscribeToTask(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        await self._echo(context)
        async for item in super().SubscribeToTask(request, context):
            yield item

    async def GetTask(self, request: Any, context: grpc.aio.ServicerContext) -> Any:
        await self._echo(context)
        return await super().GetTask(request, context)


async def build(http_port: int, grpc_port: int, store: core.Store, faults: set[str]) -> tuple[Any, Any, str]:
    """(the card's ASGI app, the started gRPC server, its host:port)."""
    server = grpc.aio.server()
    bound = server.add_insecure_port(f'127.0.0.1:{grpc_port}')
    target = f'127.0.0.1:{bound}'
    task_store = sdk_v1.DurableTaskStore(store)
    await task_store.load()
    agent_card = sdk_v1.card(target, 'GRPC')
    gate = flow.State(Gates(store.db, faults), faults)
    handler = DefaultRequestHandler(agent_executor=sdk_v1.HitlExecutor(store, faults, gate), task_store=task_store,
                                    agent_card=agent_card)
    a2a_grpc.add_A2AServiceServicer_to_server(HitlGrpcHandler(handler, store, faults, task_store), server)
    await server.start()
    return Starlette(routes=create_agent_card_routes(agent_card)), server, target
