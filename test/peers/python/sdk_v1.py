"""Adapter for a2a-sdk 1.x (A2A 1.0 wire, ProtoJSON): card, executor, durable task store, app."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from google.protobuf.json_format import MessageToDict, ParseDict
from starlette.applications import Starlette

from a2a.helpers.proto_helpers import new_text_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.context import ServerCallContext
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types.a2a_pb2 import (
    AgentCapabilities,
    AgentCard,
    AgentExtension,
    AgentInterface,
    AgentSkill,
    Part,
    Task,
    TaskState,
    TaskStatus,
)

import acceptance_core as acc
import acceptance_flow as flow
import bearer_auth
import hitl_core as core
import hitl_http
from acceptance_http import AcceptanceMiddleware
from acceptance_store import Gates


def card(url: str, binding: str = 'JSONRPC') -> AgentCard:
    """The peer's card; over HTTP+JSON or gRPC without the acceptance extension (its middleware reads
    JSON-RPC bodies)."""
    ext = AgentExtension(uri=core.URI, description='Structured HITL prompt envelope on INPUT_REQUIRED state.',
                         required=False)
    ext.params.SetInParent()  # present and empty: ProtoJSON then writes "params": {}
    gate = AgentExtension(uri=acc.URI, description='Acceptance criteria: completion gated on an accept/reject decision.',
                          required=False)
    gate.params.update({'evaluators': list(acc.EVALUATORS), 'supportsArtifactSchema': True,
                        'maxRejectionsCap': acc.MAX_REJECTIONS_CAP})
    return AgentCard(
        name='hitl-peer-python-a2a-sdk-1.3.0',
        description='Independent hitl-prompt/v1 test peer on the official Python a2a-sdk 1.x',
        supported_interfaces=[AgentInterface(url=url, protocol_binding=binding.upper(), protocol_version='1.0')],
        version='1.0.0',
        capabilities=AgentCapabilities(streaming=True, extensions=[ext, gate] if binding.upper() == 'JSONRPC' else [ext]),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='approval', name='approval', description='Asks a human to approve', tags=['hitl'])],
    )


class DurableTaskStore(InMemoryTaskStore):
    """The SDK's in-memory store (so GetTask/ListTasks stay native), written through to sqlite."""

    def __init__(self, store: core.Store) -> None:
        super().__init__()
        self.store = store

    async def load(self) -> None:
        for body in self.store.all_tasks():
            await super().save(ParseDict(json.loads(body), Task()), ServerCallContext())

    async def save(self, task: Task, context: ServerCallContext) -> None:
        self.store.save_task(task.id, json.dumps(MessageToDict(task)))
        await super().save(task, context)

    async def delete(self, task_id: str, context: ServerCallContext) -> None:
        self.store.delete_task(task_id)
        await super().delete(task_id, context)


class GateOps:
    """acceptance_flow.Ops on the 1.x TaskUpdater and proto types."""

    def __init__(self, updater: TaskUpdater, task_id: str, context_id: str) -> None:
        self.updater, self.task_id, self.context_id = updater, task_id, context_id

    def message(self, text: str, meta: dict[str, Any]) -> Any:
        msg = new_text_message(text, context_id=self.context_id, task_id=self.task_id)
        if meta:  # a message carrying one of the extension's keys lists its URI
            msg.metadata.update(meta)
            msg.extensions.append(acc.URI)
        return msg

    async def artifact(self, step: dict[str, Any]) -> None:
        if 'data' in step:
            part = ParseDict({'data': step['data'], 'mediaType': 'application/json'}, Part())
        elif 'url' in step:
            part = Part(url=str(step['url']))
        else:
            part = Part(text=str(step.get('text', '')))
        await self.updater.add_artifact([part], name=step.get('name'))

    async def work(self) -> None:
        await self.updater.start_work()

    async def park(self, text: str, meta: dict[str, Any], final: bool = True) -> None:
        await self.updater.requires_input(self.message(text, meta))

    async def complete(self, text: str) -> None:
        await self.updater.complete(self.message(text, {}))

    async def fail(self, text: str, meta: dict[str, Any]) -> None:
        await self.updater.failed(self.message(text, meta))


class HitlExecutor(AgentExecutor):
    def __init__(self, store: core.Store, faults: set[str], gate: flow.State) -> None:
        self.store, self.faults, self.gate = store, faults, gate

    async def execute(self, context: RequestContext, event_queue: Any) -> None:
        task_id, context_id = context.task_id, context.context_id
        updater = TaskUpdater(event_queue, task_id, context_id)
        meta = MessageToDict(context.message.metadata) if context.message else {}
        current = context.current_task
        message_id = context.message.message_id if context.message else ''
        setup = self.gate.setups.pop(message_id, None) if current is None else None
        if setup is not None:  # the middleware validated the creating request's criteria
            self.gate.gates.create(task_id, context_id, setup)
        new_task = current is None
        if current is None:  # the SDK wants the Task itself before any status update
            current = Task(id=task_id, context_id=context_id, status=TaskStatus(state=TaskState.TASK_STATE_SUBMITTED),
                           history=[context.message] if context.message else [])
            await event_queue.enqueue_event(current)
        if await flow.on_execute(self.gate, task_id, message_id, new_task=new_task,
                                 hitl_activated=core.URI in context.requested_extensions,
                                 hitl_answer='hitl_response_for' in meta, ops=GateOps(updater, task_id, context_id)):
            return
        parked = current is not None and current.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
        if 'hitl_response_for' in meta:
            # Only an answer the middleware accepted (claimed) reaches the SDK: resume, whatever state
            # the SDK's copy of the task shows at this instant.
            if 'slow-resume' in self.faults:
                await asyncio.sleep(core.SLOW_RESUME_S)
            if 'keep-input-required' in self.faults:
                await updater.requires_input(new_text_message(core.PLAIN_TEXT, context_id=context_id, task_id=task_id))
                return
            await updater.start_work()
            payload = meta['hitl_response_for'].get('payload', {})
            await updater.complete(new_text_message(f'answer accepted: {json.dumps(payload)}',
                                                    context_id=context_id, task_id=task_id))
            return
        envelope = self.store.open_prompt_for_task(task_id) if parked else None
        if parked and envelope is None:  # a plain (unactivated) exchange: any reply completes it
            await updater.start_work()
            await updater.complete()
            return
        activated = core.URI in context.requested_extensions or 'envelope-without-activation' in self.faults
        if envelope is None and activated:
            envelope = self.store.new_prompt(task_id, context_id, self.faults)
        msg = new_text_message(core.PLAIN_TEXT, context_id=context_id, task_id=task_id)
        if envelope is not None:
            msg.metadata.update({core.URI: envelope})
        await updater.requires_input(msg)

    async def cancel(self, context: RequestContext, event_queue: Any) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


async def build_app(port: int, store: core.Store, faults: set[str], binding: str = 'jsonrpc') -> Any:
    url = f'http://127.0.0.1:{port}/'
    task_store = DurableTaskStore(store)
    await task_store.load()
    agent_card = card(url, binding)
    if bearer_auth.token():
        bearer_auth.card_security(agent_card)
    gate = flow.State(Gates(store.db, faults), faults)
    handler = DefaultRequestHandler(agent_executor=HitlExecutor(store, faults, gate), task_store=task_store,
                                    agent_card=agent_card)
    routes = create_jsonrpc_routes(handler, '/') if binding == 'jsonrpc' else create_rest_routes(handler)
    app = Starlette(routes=create_agent_card_routes(agent_card) + routes)

    async def render_task(task_id: str, _method: str) -> Any:
        task = await task_store.get(task_id, ServerCallContext())
        return {'task': MessageToDict(task) if task else {}}

    async def settle(task_id: str, outcome: str, text: str, meta: dict) -> None:
        """A transition no request carries (timeout, recovery): written to the task store directly."""
        task = await task_store.get(task_id, ServerCallContext())
        if task is None or task.status.state in (TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED):
            return
        state = TaskState.TASK_STATE_COMPLETED if outcome == 'completed' else TaskState.TASK_STATE_FAILED
        ops = GateOps(None, task_id, task.context_id)  # type: ignore[arg-type]
        task.status.CopyFrom(TaskStatus(state=state, message=ops.message(text, meta)))
        task.status.timestamp.GetCurrentTime()
        await task_store.save(task, ServerCallContext())

    async def parked_pending(task_id: str) -> bool:
        task = await task_store.get(task_id, ServerCallContext())
        return (task is not None and task.status.state == TaskState.TASK_STATE_INPUT_REQUIRED
                and MessageToDict(task.status.message).get('metadata', {}).get(acc.PENDING_KEY) is True)

    hitl = hitl_http.HitlMiddleware(app, store, faults, render_task)
    return AcceptanceMiddleware(hitl, gate, render_task, settle, parked_pending)
