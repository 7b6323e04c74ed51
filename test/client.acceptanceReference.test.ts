// End to end: the rig's client against the reference agent's acceptance gate, in both wire
// generations: the card's declaration, a gated task parked after its artifact, accept → COMPLETED,
// reject with retry → pending again on the same task, a second decision → conflict, a stranger's
// decision → unauthorized, hostile criteria → criteria-invalid. Only `client.acceptance` is used,
// as a scenario (which sees the client through the ScenarioContext) would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AClient, userMessage, type AcceptanceSendOutcome } from '../rig/client/index.ts';
import type { Task } from '../rig/protocol/a2aTypes.ts';
import { inProcessAgent } from './support/inProcessAgent.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const script = {
  'a2a-rig/script': { steps: [{ artifact: { name: 'result', text: 'first draft' } }, { complete: {} }] },
};

function taskOf(sent: AcceptanceSendOutcome): Task {
  if (!sent.ok || !('task' in sent.value))
    throw new Error(`no task: ${JSON.stringify(sent.ok ? sent.value : sent.error)}`);
  return sent.value.task;
}

describe.each(['1.0', '0.3'] as const)('the reference agent over A2A %s', (generation) => {
  let client: A2AClient;
  beforeAll(async () => {
    client = await A2AClient.open(agent.url, { generation });
  });
  afterAll(async () => client?.close());

  it('declares the extension as the design says', () => {
    expect(
      client.acceptance.skipReason({ evaluator: 'human', artifactSchema: true, maxRejections: 10 }),
    ).toBeUndefined();
    expect(client.acceptance.declaration).toMatchObject({
      declared: true,
      required: false,
      evaluators: ['client', 'agent', 'human'],
      supportsArtifactSchema: true,
      maxRejectionsCap: 10,
    });
  });

  it('parks after the artifact; accept completes; a second decision is a conflict', async () => {
    const sent = await client.acceptance.send(userMessage({ data: script }), { criteria: { description: 'a draft' } });
    expect(sent.gate).toBe('active');
    const task = taskOf(sent);
    expect(client.acceptance.isPending(task)).toBe(true);
    expect(client.acceptance.unlisted(task)).toEqual([]);
    expect(task.artifacts.map((a) => a.name)).toContain('result');
    const accepted = await client.acceptance.decide(
      task.id,
      task.contextId,
      { action: 'accept' },
      { feedback: 'fine' },
    );
    expect(accepted).toMatchObject({ kind: 'applied', state: 'TASK_STATE_COMPLETED', problems: [] });
    const again = await client.acceptance.decide(task.id, task.contextId, { action: 'accept' });
    expect(again).toMatchObject({ kind: 'conflict', rpcCode: -32042, problems: [] });
  });

  it('reject with retry parks the same task again, with the feedback in its history', async () => {
    const task = taskOf(await client.acceptance.send(userMessage({ data: script })));
    const rejected = await client.acceptance.decide(
      task.id,
      task.contextId,
      { action: 'reject', reason: 'MISSING_ARTIFACT' },
      { feedback: 'add the table', returnImmediately: false },
    );
    expect(rejected).toMatchObject({ kind: 'applied', state: 'TASK_STATE_INPUT_REQUIRED' });
    expect(rejected.task).toMatchObject({ id: task.id, contextId: task.contextId });
    expect(client.acceptance.isPending(rejected.task)).toBe(true);
    const read = await client.getTask(task.id);
    if (!read.ok) throw new Error('no task');
    expect(read.value.history.some((m) => m.parts.some((p) => p.text === 'add the table'))).toBe(true);
  });

  it(
    'refuses a stranger, lets a named decider fail the task, ' + 'and refuses criteria with an unknown evaluator',
    async () => {
      const task = taskOf(
        await client.acceptance.send(userMessage({ data: script }), {
          bearerToken: 'creator',
          deciders: [client.acceptance.principalOf('reviewer')],
        }),
      );
      const stranger = await client.acceptance.decide(
        task.id,
        task.contextId,
        { action: 'accept' },
        { bearerToken: 'stranger' },
      );
      expect(stranger).toMatchObject({ kind: 'unauthorized', rpcCode: -32043, problems: [] });
      const reviewer = await client.acceptance.decide(
        task.id,
        task.contextId,
        { action: 'reject', reason: 'OTHER', retry: false },
        { bearerToken: 'reviewer' },
      );
      expect(reviewer).toMatchObject({ kind: 'applied', state: 'TASK_STATE_FAILED' });
      const refused = await client.acceptance.send(userMessage({ data: script }), { criteria: { evaluator: 'robot' } });
      expect(refused.ok).toBe(false);
      expect(refused.refusal).toMatchObject({ kind: 'criteria-invalid', code: -32040, problems: [] });
    },
  );
});
