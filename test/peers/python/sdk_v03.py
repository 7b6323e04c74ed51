"""Adapter for a2a-sdk 0.3.x (A2A 0.3 wire, pydantic models): card, executor, durable task store, app."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timezone
from typing import Any

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.apps import A2AStarletteApplication
from a2a.server.context import ServerCallContext
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (AgentCapabilities, AgentCard, AgentExtension, AgentSkill, DataPart, FilePart, FileWithUri, Part,
                       Task, TaskState, TaskStatus, TextPart)
from a2a.utils import new_agent_text_message, new_task

import acceptance_core as acc
import acceptance_flow as flow
import hitl_core as core
import hitl_http
from acceptance_http import AcceptanceMiddleware
from acceptance_store import Gates


def card(url: str) -> AgentCard:
    return AgentCard(
        name='hitl-peer-python-a2a-sdk-0.3.26',
        description='Independent hitl-prompt/v1 test peer on the official Python a2a-sdk 0.3',
        url=url,
        version='1.0.0',
        protocol_version='0.3.0',
        preferred_transport='JSONRPC',
        capabilities=AgentCapabilities(streaming=True, extensions=[AgentExtension(
            uri=core.URI, description='Structured HITL prompt envelope on INPUT_REQUIRED state.',
            required=False, params={}), AgentExtension(
            uri=acc.URI, description='Acceptance criteria: completion gated on an accept/reject decision.',
            required=False, params={'evaluators': list(acc.EVALUATORS), 'supportsArtifactSchema': True,
                                    'maxRejectionsCap': acc.MAX_REJECTIONS_CAP})]),
        default_input_modes=['text/plain'],
        default_output_modes=['text/plain'],
        skills=[AgentSkill(id='approval', name='approval', description='Asks a human to approve', tags=['hitl'])],
    )


class DurableTaskStore(InMemoryTaskStore):
    """The SDK's in-memory store, written through to sqlite and reloaded from it at start."""

    def __init__(self, store: core.Store) -> None:
        super().__init__()
        self.store = store
        for body in store.all_tasks():
            task = Task.model_validate_json(body)
            self.tasks[task.id] = task

    async def save(self, task: Task, context: ServerCallContext | None = None) -> None:
        self.store.save_task(task.id, task.model_dump_json(by_alias=True, exclude_none=True))
        await super().save(task, context)

    async def delete(self, task_id: str, context: ServerCallContext | None = None) -> None:
        self.store.delete_task(task_id)
        await super().delete(task_id, context)


class GateOps:
    """acceptance_flow.Ops on the 0.3 TaskUpdater and pydantic types."""

    def __init__(self, updater: TaskUpdater, task_id: str, context_id: str) -> None:
        self.updater, self.task_id, self.context_id = updater, task_id, context_id

    def message(self, text: str, meta: dict[str, Any]) -> Any:
        msg = new_agent_text_message(text, context_id=self.context_id, task_id=self.task_id)
        if meta:  # a message carrying one of the extension's keys lists its URI
            msg.metadata = dict(meta)
            msg.extensions = [acc.URI]
        return msg

    async def artifact(self, step: dict[str, Any]) -> None:
        if 'data' in step:  # a 0.3 DataPart holds an object: anything else is wrapped
            data = step['data'] if isinstance(step['data'], dict) else {'value': step['data']}
            part = Part(root=DataPart(data=data))
        elif 'url' in step:
            part = Part(root=FilePart(file=FileWithUri(uri=str(step['url']))))
        else:
            part = Part(root=TextPart(text=str(step.get('text', ''))))
        await self.updater.add_artifact([part], name=step.get('name'))

    async def work(self) -> None:
        await self.updater.start_work()

    async def park(self, text: str, meta: dict[str, Any], final: bool = True) -> None:
        await self.updater.requires_input(self.message(text, meta), final=final)

    async def complete(self, text: str) -> None:
        await self.updater.complete(self.message(text, {}))

    async def fail(self, text: str, meta: dict[str, Any]) -> None:
        await self.updater.failed(self.message(text, meta))


class HitlExecutor(AgentExecutor):
    def __init__(self, store: core.Store, faults: set[str], gate: flow.State) -> None:
        self.store, self.faults, self.gate = store, faults, gate

    async def execute(self, context: RequestContext, event_queue: Any) -> None:
        current = context.current_task
        new = current is None
        if current is None:
            current = new_task(context.message)
            await event_queue.enqueue_event(current)
        task_id, context_id = current.id, current.context_id
        updater = TaskUpdater(event_queue, task_id, context_id)
        meta = (context.message.metadata if context.message else None) or {}
        message_id = context.message.message_id if context.message else ''
        setup = self.gate.setups.pop(message_id, None) if new else None
        if setup is not None:  # the middleware validated the creating request's criteria
            self.gate.gates.create(task_id, context_id, setup)
        if await flow.on_execute(self.gate, task_id, message_id, new_task=new,
                                 hitl_activated=core.URI in context.requested_extensions,
                                 hitl_answer='hitl_response_for' in meta, ops=GateOps(updater, task_id, context_id)):
            return
        parked = current.status.state == TaskState.input_required

        def text(t: str) -> Any:
            return new_agent_text_message(t, context_id=context_id, task_id=task_id)

        if 'hitl_response_for' in meta:
            # Only an answer the middleware accepted (claimed) reaches the SDK: resume, whatever state
            # the SDK's copy of the task shows at this instant.
            if 'slow-resume' in self.faults:
                await asyncio.sleep(core.SLOW_RESUME_S)
            if 'keep-input-required' in self.faults:
                await updater.requires_input(text(core.PLAIN_TEXT), final=True)
                return
            await updater.start_work()
            payload = meta['hitl_response_for'].get('payload', {})
            await updater.complete(text(f'answer accepted: {json.dumps(payload)}'))
            return
        envelope = self.store.open_prompt_for_task(task_id) if parked else None
        if parked and envelope is None:  # a plain (unactivated) exchange: any reply completes it
            await updater.start_work()
            await updater.complete()
            return
        activated = core.URI in context.requested_extensions or 'envelope-without-activation' in self.faults
        if envelope is None and activated:
            envelope = self.store.new_prompt(task_id, context_id, self.faults)
        msg = text(core.PLAIN_TEXT)
        if envelope is not None:
            msg.metadata = {core.URI: envelope}
        await updater.requires_input(msg, final=True)

    async def cancel(self, context: RequestContext, event_queue: Any) -> None:
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


async def build_app(port: int, store: core.Store, faults: set[str], binding: str = 'jsonrpc') -> Any:
    if binding != 'jsonrpc':
        raise SystemExit(f'the a2a-sdk 0.3 peer serves JSON-RPC only, not {binding}')
    url = f'http://127.0.0.1:{port}/'
    task_store = DurableTaskStore(store)
    agent_card = card(url)
    gate = flow.State(Gates(store.db, faults), faults)
    handler = DefaultRequestHandler(agent_executor=HitlExecutor(store, faults, gate), task_store=task_store)
    app = A2AStarletteApplication(agent_card=agent_card, http_handler=handler).build(rpc_url='/')

    async def render_task(task_id: str, _method: str) -> Any:
        task = await task_store.get(task_id)
        return task.model_dump(mode='json', by_alias=True, exclude_none=True) if task else {}

    async def settle(task_id: str, outcome: str, text: str, meta: dict) -> None:
        """A transition no request carries (timeout, recovery): written to the task store directly."""
        task = await task_store.get(task_id)
        if task is None or task.status.state in (TaskState.completed, TaskState.failed):
            return
        msg = GateOps(None, task_id, task.context_id).message(text, meta)  # type: ignore[arg-type]
        state = TaskState.completed if outcome == 'completed' else TaskState.failed
        task.status = TaskStatus(state=state, message=msg, timestamp=datetime.now(timezone.utc).isoformat())
        await task_store.save(task)

    async def parked_pending(task_id: str) -> bool:
        task = await task_store.get(task_id)
        return (task is not None and task.status.state == TaskState.input_required and task.status.message is not None
                and (task.status.message.metadata or {}).get(acc.PENDING_KEY) is True)

    hitl = hitl_http.HitlMiddleware(app, store, faults, render_task)
    return AcceptanceMiddleware(hitl, gate, render_task, settle, parked_pending)
