// The gate's other paths: `evaluator: agent` (the agent checks artifactSchema and requiredArtifacts
// itself: COMPLETED, or FAILED with AcceptanceCriteriaNotMet in the status message), the timeout of
// a pending task (FAILED after acceptanceTimeoutSeconds), and composition with hitl-prompt/v1 on
// the same task (a prompt first, then a pending acceptance).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessAgent } from './support/inProcessAgent.ts';
import { answerMessage, envelopeOf, replay, stateOf } from './support/rpcClient.ts';
import { ACCEPT, ACCEPTANCE_URI, call, createGated, decide, isPending, taskIn } from './support/acceptanceClient.ts';

let agent: Awaited<ReturnType<typeof inProcessAgent>>;
beforeAll(async () => {
  agent = await inProcessAgent();
});
afterAll(async () => agent?.cleanup());

const gen = '1.0' as const;
const SCHEMA = { type: 'object', required: ['score'], properties: { score: { type: 'number' } } };
const agentCriteria = { evaluator: 'agent', requiredArtifacts: ['report'], artifactSchema: SCHEMA };

describe('evaluator: agent', () => {
  it('completes when the artifacts meet the criteria, with no pending state', async () => {
    const steps = [{ artifact: { name: 'report', data: { score: 3 } } }, { complete: {} }];
    const task = taskIn(gen, await createGated(agent.url, gen, { steps, criteria: agentCriteria }));
    expect(stateOf(gen, task)).toBe('TASK_STATE_COMPLETED');
    const { frames } = await replay(agent.url, task.id, 0, { version: gen, timeoutMs: 500 });
    expect(frames.some((f) => f.event.statusUpdate?.status.state === 'TASK_STATE_INPUT_REQUIRED')).toBe(false);
  });

  it.each([
    ['a required artifact is missing', [{ artifact: { name: 'other', data: { score: 3 } } }, { complete: {} }]],
    [
      'a data part breaks artifactSchema',
      [{ artifact: { name: 'report', data: { score: 'high' } } }, { complete: {} }],
    ],
  ])('fails with AcceptanceCriteriaNotMet when %s', async (_what, steps) => {
    const task = taskIn(gen, await createGated(agent.url, gen, { steps, criteria: agentCriteria }));
    expect(stateOf(gen, task)).toBe('TASK_STATE_FAILED');
    const error = task.status.message.metadata[`${ACCEPTANCE_URI}/error`];
    expect(error).toMatchObject({ code: -32041, message: 'acceptance_criteria_not_met' });
    expect(error.details.length).toBeGreaterThan(0);
    expect(task.status.message.extensions).toEqual([ACCEPTANCE_URI]);
  });
});

describe('acceptance timeout', () => {
  it('fails a task left pending past acceptanceTimeoutSeconds, and refuses a decision after', async () => {
    const task = taskIn(gen, await createGated(agent.url, gen, { criteria: { acceptanceTimeoutSeconds: 1 } }));
    expect(isPending(task)).toBe(true);
    const { frames } = await replay(agent.url, task.id, 0, {
      version: gen,
      until: (fs) => fs.some((f) => f.event.statusUpdate?.status.state === 'TASK_STATE_FAILED'),
      timeoutMs: 8_000,
    });
    const failed = frames.find((f) => f.event.statusUpdate?.status.state === 'TASK_STATE_FAILED');
    expect(failed).toBeDefined();
    // Measured on the agent's own clock: from the pending status to the failure.
    expect(
      Date.parse(failed!.event.statusUpdate.status.timestamp) - Date.parse(task.status.timestamp),
    ).toBeGreaterThanOrEqual(1_000);
    expect(failed!.event.statusUpdate.status.message.parts[0].text).toContain('acceptanceTimeoutSeconds');
    expect((await decide(agent.url, gen, task.id, ACCEPT)).body.error.code).toBe(-32042);
  });
});

describe('composition with hitl-prompt/v1', () => {
  it('asks its prompt first, then parks pending acceptance on the same task', async () => {
    const steps = [
      {
        prompt: {
          text: 'Which region?',
          response_schema: { type: 'object', required: ['region'], properties: { region: { type: 'string' } } },
        },
      },
      { artifact: { name: 'result', text: 'report for {{answer}}' } },
      { complete: {} },
    ];
    const both = { hitl: true };
    const task = taskIn(gen, await createGated(agent.url, gen, { steps }, both));
    expect(stateOf(gen, task)).toBe('TASK_STATE_INPUT_REQUIRED');
    const envelope = envelopeOf(task);
    expect(envelope.prompt_id).toEqual(expect.any(String));
    expect(isPending(task)).toBe(false);
    // Not pending yet: a decision is a conflict.
    expect((await decide(agent.url, gen, task.id, ACCEPT, both)).body.error.code).toBe(-32042);

    const answered = taskIn(
      gen,
      await call(
        agent.url,
        gen,
        'SendMessage',
        { message: answerMessage(gen, task.id, envelope.prompt_id, { region: 'eu' }) },
        both,
      ),
    );
    expect(stateOf(gen, answered)).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(isPending(answered)).toBe(true);
    expect(answered.artifacts[0].parts[0].text).toBe('report for {"region":"eu"}');
    // A late duplicate answer to the prompt is still hitl's conflict, not a silent no-op.
    const duplicate = await call(
      agent.url,
      gen,
      'SendMessage',
      { message: answerMessage(gen, task.id, envelope.prompt_id, { region: 'us' }) },
      both,
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe(-32010);
    expect(stateOf(gen, taskIn(gen, await decide(agent.url, gen, task.id, ACCEPT, both)))).toBe('TASK_STATE_COMPLETED');
  });
});
