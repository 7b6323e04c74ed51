// The rig's client against a small agent of the acceptance-criteria extension (test/support/
// fakeAcceptanceAgent.ts), in both wire generations: the card's declaration, criteria on the
// creating send, the echo and the pending flag, and every outcome a decision can have.
import { afterEach, describe, expect, it } from 'vitest';
import {
  A2AClient,
  isPendingAcceptance,
  principalOf,
  unlistedAcceptanceMessages,
  userMessage,
  acceptanceSkipReason,
} from '../rig/client/index.ts';
import type { Task } from '../rig/protocol/a2aTypes.ts';
import { ACCEPTANCE_URI, CRITERIA_KEY, DECIDERS_KEY, DECISION_KEY } from '../rig/protocol/acceptance.ts';
import { HITL_PROMPT_URI } from '../rig/protocol/hitlPrompt.ts';
import {
  startFakeAcceptanceAgent,
  type FakeAcceptanceAgent,
  type FakeAcceptanceOptions,
} from './support/fakeAcceptanceAgent.ts';

let agent: FakeAcceptanceAgent | undefined;
let client: A2AClient | undefined;

afterEach(async () => {
  await client?.close();
  await agent?.close();
  client = agent = undefined;
});

async function open(options: FakeAcceptanceOptions): Promise<A2AClient> {
  agent = await startFakeAcceptanceAgent(options);
  client = await A2AClient.open(agent.url);
  return client;
}

function taskOf(result: { ok: boolean; value?: unknown }): Task {
  if (!result.ok || typeof result.value !== 'object' || result.value === null || !('task' in result.value))
    throw new Error(`no task: ${JSON.stringify(result)}`);
  return (result.value as { task: Task }).task;
}

describe.each(['0.3', '1.0'] as const)('A2A %s', (generation) => {
  it('reads the declaration from the card, and skips with a reason when there is none', async () => {
    const declared = await open({ generation });
    expect(declared.generation).toBe(generation);
    expect(declared.agent.acceptance).toMatchObject({
      declared: true,
      required: false,
      evaluators: ['client', 'agent', 'human'],
      supportsArtifactSchema: true,
      maxRejectionsCap: 10,
    });
    expect(acceptanceSkipReason(declared.agent.acceptance)).toBeUndefined();
    await client!.close();
    await agent!.close();
    const bare = await open({ generation, declaration: null });
    expect(bare.agent.acceptance.declared).toBe(false);
    expect(acceptanceSkipReason(bare.agent.acceptance)).toMatch(/does not declare the acceptance-criteria extension/);
  });

  it('reads a declaration whose defaults ProtoJSON left out as those defaults', async () => {
    const c = await open({ generation, declaration: { uri: ACCEPTANCE_URI, params: { evaluators: ['client'] } } });
    expect(c.agent.acceptance).toMatchObject({
      declared: true,
      required: false,
      requiredAbsent: true,
      evaluators: ['client'],
      supportsArtifactSchema: false,
      maxRejectionsCap: undefined,
    });
    expect(c.agent.problems.filter((p) => p.includes('acceptance'))).toEqual([]);
    expect(acceptanceSkipReason(c.agent.acceptance, { artifactSchema: true })).toMatch(/supportsArtifactSchema false/);
  });

  it(
    'sends the criteria, the deciders and a bearer token ' + 'on the creating message, activating both extensions',
    async () => {
      const c = await open({ generation });
      const criteria = { evaluator: 'client', maxRejections: 2, description: 'a haiku' };
      const sent = await c.acceptance.send(userMessage({ text: 'write' }), {
        criteria,
        deciders: [principalOf('reviewer')],
        bearerToken: 'creator-token',
      });
      expect(sent.ok).toBe(true);
      const request = agent!.requests.at(-1)!;
      expect(request.method).toBe(generation === '1.0' ? 'SendMessage' : 'message/send');
      expect(request.extensions?.split(', ')).toEqual([HITL_PROMPT_URI, ACCEPTANCE_URI]);
      expect(request.authorization).toBe('Bearer creator-token');
      const message = request.params.message;
      expect(message.metadata[CRITERIA_KEY]).toEqual(criteria);
      expect(message.metadata[DECIDERS_KEY]).toEqual([principalOf('reviewer')]);
      expect(message.extensions).toEqual([ACCEPTANCE_URI]);
      if (generation === '0.3') expect(message.kind).toBe('message');
    },
  );

  it('recognises the echo and the pending state (in the send reply and on a later read)', async () => {
    const c = await open({ generation });
    const sent = await c.acceptance.send(userMessage({ text: 'write' }));
    expect(sent.gate).toBe('active');
    const task = taskOf(sent);
    expect(isPendingAcceptance(task)).toBe(true);
    expect(unlistedAcceptanceMessages(task)).toEqual([]);
    const read = await c.getTask(task.id);
    expect(isPendingAcceptance(taskOf({ ok: read.ok, value: read.ok ? { task: read.value } : undefined }))).toBe(true);
    expect(task.artifacts.map((a) => a.name)).toEqual(['result']);
  });

  it('reports no gate when the agent does not echo the extension', async () => {
    const c = await open({ generation, echo: false });
    const sent = await c.acceptance.send(userMessage({ text: 'write' }));
    expect(sent.ok).toBe(true);
    expect(sent.gate).toBe('absent');
  });

  it('a client that does not activate sees a plain completion and no gate', async () => {
    const c = await open({ generation });
    const sent = await c.acceptance.send(userMessage({ text: 'write' }), { extensions: [] });
    expect(agent!.requests.at(-1)!.extensions).toBeUndefined();
    expect(sent.gate).toBe('absent');
    expect(taskOf(sent).status.state).toBe('TASK_STATE_COMPLETED');
    expect(isPendingAcceptance(taskOf(sent))).toBe(false);
  });

  it.each([
    ['the string "true"', 'string'],
    ['no flag', 'absent'],
  ] as const)('INPUT_REQUIRED with %s is not the gate', async (_name, pendingFlag) => {
    const c = await open({ generation, pendingFlag });
    const task = taskOf(await c.acceptance.send(userMessage({ text: 'write' })));
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(isPendingAcceptance(task)).toBe(false);
  });

  it('finds a pending status message that carries the flag without listing the URI', async () => {
    const c = await open({ generation, listsUri: false });
    const task = taskOf(await c.acceptance.send(userMessage({ text: 'write' })));
    expect(isPendingAcceptance(task)).toBe(true);
    expect(unlistedAcceptanceMessages(task)).toEqual([
      expect.stringMatching(/^status\.message s-.* carries pendingAcceptance but its extensions do not list /),
    ]);
  });

  it('accept completes; a second decision is a conflict', async () => {
    const c = await open({ generation });
    const task = taskOf(await c.acceptance.send(userMessage({ text: 'write' })));
    const accepted = await c.acceptance.decide(task.id, task.contextId, { action: 'accept' });
    expect(accepted).toMatchObject({ kind: 'applied', state: 'TASK_STATE_COMPLETED', httpStatus: 200, problems: [] });
    const decision = agent!.requests.at(-1)!;
    expect(decision.params.message).toMatchObject({
      taskId: task.id,
      contextId: task.contextId,
      metadata: { [DECISION_KEY]: { action: 'accept' } },
      extensions: [ACCEPTANCE_URI],
    });
    expect(decision.extensions?.split(', ')).toContain(ACCEPTANCE_URI);
    const again = await c.acceptance.decide(task.id, task.contextId, { action: 'accept' });
    expect(again).toMatchObject({ kind: 'conflict', rpcCode: -32042, problems: [] });
    expect(again.error).toMatchObject({
      kind: 'conflict',
      extension: ACCEPTANCE_URI,
      reason: 'task is completed, not pending acceptance',
    });
  });

  it('reject with retry: WORKING on the same task, the feedback in history, then pending again', async () => {
    const c = await open({ generation });
    const task = taskOf(await c.acceptance.send(userMessage({ text: 'write' })));
    const rejected = await c.acceptance.decide(
      task.id,
      task.contextId,
      { action: 'reject', reason: 'QUALITY_THRESHOLD_NOT_MET' },
      { feedback: 'too short' },
    );
    expect(rejected).toMatchObject({ kind: 'applied', state: 'TASK_STATE_WORKING' });
    expect(rejected.task).toMatchObject({ id: task.id, contextId: task.contextId });
    const read = await c.getTask(task.id);
    if (!read.ok) throw new Error('no task');
    expect(isPendingAcceptance(read.value)).toBe(true);
    expect(read.value.history.at(-1)?.parts).toEqual([{ text: 'too short' }]);
  });

  it('reject with retry false fails the task', async () => {
    const c = await open({ generation });
    const task = taskOf(await c.acceptance.send(userMessage({ text: 'write' })));
    const rejected = await c.acceptance.decide(task.id, task.contextId, {
      action: 'reject',
      reason: 'OUT_OF_SCOPE',
      retry: false,
    });
    expect(rejected).toMatchObject({ kind: 'applied', state: 'TASK_STATE_FAILED' });
  });

  it('a decision from another principal is unauthorized; a named decider may decide', async () => {
    const c = await open({ generation });
    const task = taskOf(
      await c.acceptance.send(userMessage({ text: 'write' }), {
        bearerToken: 'creator',
        deciders: [principalOf('reviewer')],
      }),
    );
    const stranger = await c.acceptance.decide(
      task.id,
      task.contextId,
      { action: 'accept' },
      { bearerToken: 'stranger' },
    );
    expect(stranger).toMatchObject({ kind: 'unauthorized', rpcCode: -32043 });
    expect(agent!.requests.at(-1)!.authorization).toBe('Bearer stranger');
    const anonymous = await c.acceptance.decide(task.id, task.contextId, { action: 'accept' });
    expect(anonymous.kind).toBe('unauthorized');
    const reviewer = await c.acceptance.decide(
      task.id,
      task.contextId,
      { action: 'accept' },
      { bearerToken: 'reviewer' },
    );
    expect(reviewer).toMatchObject({ kind: 'applied', state: 'TASK_STATE_COMPLETED' });
  });

  it.each([
    ['an unknown action', { action: 'maybe' }],
    ['a reject without a reason', { action: 'reject' }],
    ['a reason outside the enum', { action: 'reject', reason: 'BORED' }],
    ['not an object', 'accept'],
  ])('the raw variant sends %s as given, and the refusal is invalid', async (_name, decision) => {
    const c = await open({ generation });
    const task = taskOf(await c.acceptance.send(userMessage({ text: 'write' })));
    const outcome = await c.acceptance.decideRaw(task.id, task.contextId, decision);
    expect(agent!.requests.at(-1)!.params.message.metadata[DECISION_KEY]).toEqual(decision);
    expect(outcome).toMatchObject({ kind: 'invalid', rpcCode: -32044, problems: [] });
  });

  it('criteria the agent refuses come back as criteria-invalid with its reason', async () => {
    const c = await open({ generation });
    const sent = await c.acceptance.send(userMessage({ text: 'write' }), { criteria: { evaluator: 'robot' } });
    expect(sent.ok).toBe(false);
    expect(sent.refusal).toMatchObject({
      kind: 'criteria-invalid',
      code: -32040,
      extension: ACCEPTANCE_URI,
      reason: 'unknown evaluator robot',
      problems: [],
    });
  });

  it('reads extension errors rendered as a google.rpc ErrorInfo list too, and says where it found them', async () => {
    const c = await open({ generation, errorData: 'error-info' });
    const sent = await c.acceptance.send(userMessage({ text: 'write' }), { criteria: { maxRejections: -1 } });
    expect(sent.refusal).toMatchObject({
      kind: 'criteria-invalid',
      extension: ACCEPTANCE_URI,
      reason: 'maxRejections is negative',
    });
    expect(sent.refusal?.problems).toEqual(['extension is at error.data[0].metadata, not at error.data.extension']);
  });
});

describe('the bearer token', () => {
  it('refuses a token that would break the header, before sending anything', async () => {
    const c = await open({ generation: '1.0' });
    await expect(c.acceptance.send(userMessage({ text: 'x' }), { bearerToken: 'two words' })).rejects.toThrow(
      /visible ASCII characters without spaces/,
    );
    await expect(c.acceptance.send(userMessage({ text: 'x' }), { bearerToken: 'a\r\nx-evil: 1' })).rejects.toThrow(
      /visible ASCII/,
    );
    expect(agent!.requests).toEqual([]);
  });
});
