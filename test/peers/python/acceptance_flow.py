"""The acceptance gate's lifecycle inside an SDK executor, written once for both SDKs: each adapter
supplies `Ops` (its TaskUpdater calls and its Part/Message types); this decides which to call.

The middleware (acceptance_http) has already validated everything untrusted and, for a decision,
applied it to the gate's row with the one conditional UPDATE; the executor only carries out the
outcome it was handed (keyed by the request's messageId) on the SDK's task.
"""

from __future__ import annotations

from typing import Any, Protocol

import acceptance_core as acc
from acceptance_store import Gates


class Ops(Protocol):
    async def artifact(self, step: dict[str, Any]) -> None: ...
    async def work(self) -> None: ...
    async def park(self, text: str, meta: dict[str, Any], final: bool = True) -> None: ...
    async def complete(self, text: str) -> None: ...
    async def fail(self, text: str, meta: dict[str, Any]) -> None: ...


class State:
    """What the middleware hands the executor: gate setups for creating requests and decision
    outcomes, each keyed by the request message's messageId."""

    def __init__(self, gates: Gates, faults: set[str]) -> None:
        self.gates, self.faults = gates, faults
        self.setups: dict[str, dict[str, Any]] = {}
        self.outcomes: dict[str, str] = {}


def pending_text(gate: dict[str, Any]) -> str:
    return f'Attempt {gate["attempt"] + 1} finished: awaiting an accept or reject decision.'


async def run_attempt(state: State, gate: dict[str, Any], ops: Ops) -> None:
    """Emits the attempt's artifacts, then parks pending acceptance (or self-checks, evaluator agent)."""
    crit, task_id, faults = gate['criteria'], gate['task_id'], state.faults
    steps = acc.attempt_steps(gate['attempts'], gate['attempt'])
    if 'acceptance-parks-before-artifacts' in faults and crit.get('evaluator') != 'agent':
        state.gates.park(task_id, crit['acceptanceTimeoutSeconds'])
        await ops.park(pending_text(gate), {acc.PENDING_KEY: True}, final=False)
        for step in steps:
            await ops.artifact(step)
        return
    for step in steps:  # artifacts first: each event is committed before the status that follows it
        await ops.artifact(step)
    if crit.get('evaluator') == 'agent':
        details = acc.self_check(crit, steps)
        if not details:
            state.gates.finish(task_id, 'accepted')
            await ops.complete('Acceptance criteria met (checked by the agent).')
            return
        state.gates.finish(task_id, 'failed')
        error = {'code': acc.CRITERIA_NOT_MET, 'message': acc.MESSAGES[acc.CRITERIA_NOT_MET], 'details': details}
        await ops.fail('Acceptance criteria not met: ' + '; '.join(details)[:2000], {acc.ERROR_KEY: error})
        return
    if 'acceptance-completes-without-waiting' in faults:
        state.gates.finish(task_id, 'accepted')
        await ops.complete('Done.')
        return
    state.gates.park(task_id, crit['acceptanceTimeoutSeconds'])  # the gate is pending before anyone sees it
    await ops.park(pending_text(gate), {acc.PENDING_KEY: True})


async def on_execute(state: State, task_id: str, message_id: str, *, new_task: bool, hitl_activated: bool,
                     hitl_answer: bool, ops: Ops) -> bool:
    """True when the acceptance gate handled this execution; False leaves it to the hitl peer."""
    gate = state.gates.get(task_id)
    if gate is None:
        return False
    outcome = state.outcomes.pop(message_id, None)
    if outcome == 'accepted':
        await ops.complete('Accepted.')
        return True
    if outcome == 'failed':
        why = ('rejected without retry' if gate['rejections'] <= gate['criteria']['maxRejections']
               else f'rejected {gate["rejections"]} times; maxRejections is {gate["criteria"]["maxRejections"]}')
        await ops.fail(f'Acceptance failed: {why}.', {})
        return True
    if outcome == 'retry':  # the decision (with its feedback) is already in history: a new attempt
        await ops.work()
        await run_attempt(state, gate, ops)
        return True
    if gate['state'] == 'pending':  # a message that is not a decision: a no-op, still pending
        await ops.park(pending_text(gate), {acc.PENDING_KEY: True})
        return True
    if gate['state'] == 'running' and (hitl_answer or (new_task and not hitl_activated)):
        await ops.work()
        await run_attempt(state, gate, ops)
        return True
    return False
