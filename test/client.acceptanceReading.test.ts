// How the client reads the acceptance-criteria extension without an agent: the card's declaration
// and what breaks the draft in it, the extension's errors in either shape, a decision's reply, the
// creating message's metadata, and the URI-listing rule; plus the creating stream on a fake agent
// (the artifact arrives before the pending status, in both generations).
import { afterEach, describe, expect, it } from 'vitest';
import {
  A2AClient,
  acceptanceDeclaration,
  acceptanceSkipReason,
  classifyDecision,
  decisionMessage,
  isPendingAcceptance,
  principalOf,
  readAcceptanceError,
  unlistedAcceptanceMessages,
  userMessage,
  withCriteria,
} from '../rig/client/index.ts';
import { completeMessage } from '../rig/client/outgoingMessage.ts';
import type { Task } from '../rig/protocol/a2aTypes.ts';
import { ACCEPTANCE_URI, CRITERIA_KEY, DECIDERS_KEY, DECISION_KEY, PENDING_KEY } from '../rig/protocol/acceptance.ts';
import { startFakeAcceptanceAgent, type FakeAcceptanceAgent } from './support/fakeAcceptanceAgent.ts';

const card = (entry: unknown) => ({ capabilities: { extensions: [entry] } });
const meta = (httpStatus = 200, echoed: string[] = [ACCEPTANCE_URI]) => ({
  httpStatus,
  echoedExtensions: echoed,
  startedAt: 0,
  completedAt: 1,
  latencyMs: 1,
});

describe('the declaration', () => {
  it('lists what breaks the draft without refusing the card', () => {
    const problems: string[] = [];
    const d = acceptanceDeclaration(
      card({
        uri: ACCEPTANCE_URI,
        required: true,
        params: { evaluators: ['client', 'robot', 'client'], supportsArtifactSchema: 'yes', maxRejectionsCap: -2 },
      }),
      problems,
    );
    expect(d).toMatchObject({
      declared: true,
      required: true,
      evaluators: ['client'],
      supportsArtifactSchema: false,
      maxRejectionsCap: undefined,
    });
    expect(problems).toEqual([
      'the acceptance-criteria extension is declared with required: true; the draft says it SHOULD NOT be true',
      'the acceptance-criteria extension: params.evaluators names "robot", not one of client, agent, human',
      'the acceptance-criteria extension: params.supportsArtifactSchema is "yes", not a boolean',
      'the acceptance-criteria extension: params.maxRejectionsCap is -2, not a non-negative integer',
    ]);
  });

  it('reads a bare {uri} (ProtoJSON without params) as declared with every default', () => {
    const problems: string[] = [];
    expect(acceptanceDeclaration(card({ uri: ACCEPTANCE_URI }), problems)).toEqual({
      declared: true,
      required: false,
      requiredAbsent: true,
      evaluators: [],
      supportsArtifactSchema: false,
      maxRejectionsCap: undefined,
      params: undefined,
    });
    expect(problems).toEqual([]);
  });

  it('says why a scenario must skip: the evaluator it needs, or more rejections than the cap', () => {
    const d = acceptanceDeclaration(
      card({
        uri: ACCEPTANCE_URI,
        params: { evaluators: ['client'], supportsArtifactSchema: true, maxRejectionsCap: 2 },
      }),
      [],
    );
    expect(acceptanceSkipReason(d, { evaluator: 'agent' })).toBe(
      'the agent declares the acceptance-criteria extension without the "agent" evaluator (declared: client)',
    );
    expect(acceptanceSkipReason(d, { maxRejections: 3 })).toBe(
      'the scenario needs maxRejections 3; the agent declares maxRejectionsCap 2',
    );
    expect(acceptanceSkipReason(d, { maxRejections: 2, artifactSchema: true })).toBeUndefined();
  });
});

describe('the extension errors', () => {
  it('reads the plain data object, and names each departure from it', () => {
    expect(
      readAcceptanceError({
        code: -32042,
        message: 'acceptance_decision_conflict',
        data: { extension: ACCEPTANCE_URI, reason: 'already decided' },
      }),
    ).toMatchObject({ kind: 'conflict', reason: 'already decided', problems: [] });
    expect(readAcceptanceError({ code: -32043, message: 'forbidden' }).problems).toEqual([
      'error message is "forbidden", not "acceptance_decision_unauthorized"',
      'error.data is absent; the extension puts {extension, ...} there',
    ]);
    expect(
      readAcceptanceError({ code: -32044, message: 'acceptance_decision_invalid', data: { extension: 'urn:other' } })
        .problems,
    ).toEqual([`error data names extension "urn:other", not ${ACCEPTANCE_URI}`]);
    expect(readAcceptanceError({ code: -32001, message: 'Task not found' })).toMatchObject({
      kind: 'other',
      problems: [],
    });
  });

  it("keeps at most MAX_ERROR_REASON_CHARS of an agent's reason", () => {
    const facts = readAcceptanceError({
      code: -32044,
      message: 'acceptance_decision_invalid',
      data: { extension: ACCEPTANCE_URI, reason: 'x'.repeat(100_000) },
    });
    expect(facts.reason).toBe(`${'x'.repeat(1_000)}… (100000 characters)`);
  });

  it('classifies a 409 or 403 with an unknown code by its status, saying so', () => {
    const conflict = classifyDecision({ ok: false, error: { code: -32000, message: 'taken' }, meta: meta(409) });
    expect(conflict.kind).toBe('conflict');
    expect(conflict.problems).toContain("HTTP 409 carried JSON-RPC code -32000, not one of the extension's");
    expect(classifyDecision({ ok: false, error: { code: -32000, message: 'no' }, meta: meta(403) }).kind).toBe(
      'unauthorized',
    );
    const other = classifyDecision({
      ok: false,
      error: { code: -32040, message: 'acceptance_criteria_invalid' },
      meta: meta(),
    });
    expect(other).toMatchObject({
      kind: 'error',
      reason: 'JSON-RPC error -32040: acceptance_criteria_invalid',
      error: { kind: 'criteria-invalid' },
    });
  });

  it('an applied decision without the echo, or answered with a Message, is applied with a problem', () => {
    const message = { kind: 'message', messageId: 'm1', role: 'agent', parts: [{ kind: 'text', text: 'ok' }] };
    const outcome = classifyDecision({ ok: true, result: message, meta: meta(200, []) });
    expect(outcome.kind).toBe('applied');
    expect(outcome.task).toBeUndefined();
    expect(outcome.problems).toEqual([
      'the agent answered the decision with a Message, not the Task',
      `the reply does not echo ${ACCEPTANCE_URI}`,
    ]);
  });
});

describe('the messages', () => {
  it('withCriteria keeps the message metadata and lists the URI once', () => {
    const m = withCriteria(
      { ...userMessage({ text: 'x', metadata: { keep: 1 } }), extensions: [ACCEPTANCE_URI] },
      { criteria: { evaluator: 'human' }, deciders: ['ab'] },
    );
    expect(m.metadata).toEqual({ keep: 1, [CRITERIA_KEY]: { evaluator: 'human' }, [DECIDERS_KEY]: ['ab'] });
    expect(m.extensions).toEqual([ACCEPTANCE_URI]);
    expect(withCriteria(userMessage({ text: 'x' })).extensions).toBeUndefined();
  });

  it('a decision without feedback says its action in the text part; the principal is the token digest', () => {
    expect(decisionMessage('t', 'c', { action: 'accept' }).parts).toEqual([{ text: 'accept' }]);
    expect(principalOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(principalOf()).toBe('anonymous');
  });

  it('finds a history message carrying a decision without listing the URI', () => {
    const decision = completeMessage({
      parts: [{ text: 'no' }],
      metadata: { [DECISION_KEY]: { action: 'accept' } },
      messageId: 'd1',
    });
    const task: Task = {
      id: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_COMPLETED', timestamp: '' },
      artifacts: [],
      history: [decision],
    };
    expect(unlistedAcceptanceMessages(task)).toEqual([
      `history[0] d1 carries decision but its extensions do not list ${ACCEPTANCE_URI}`,
    ]);
    expect(unlistedAcceptanceMessages({ ...decision, extensions: [ACCEPTANCE_URI] })).toEqual([]);
  });

  it('a pending flag on a state other than INPUT_REQUIRED is not the gate', () => {
    const status = {
      state: 'TASK_STATE_WORKING' as const,
      timestamp: '',
      message: completeMessage({ parts: [], metadata: { [PENDING_KEY]: true } }),
    };
    expect(isPendingAcceptance(status)).toBe(false);
    expect(isPendingAcceptance({ ...status, state: 'TASK_STATE_INPUT_REQUIRED' })).toBe(true);
  });
});

describe.each(['0.3', '1.0'] as const)('the creating stream, A2A %s', (generation) => {
  let agent: FakeAcceptanceAgent | undefined;
  let client: A2AClient | undefined;
  afterEach(async () => {
    await client?.close();
    await agent?.close();
  });

  it('carries the criteria, echoes, and brings the artifact before the pending status', async () => {
    agent = await startFakeAcceptanceAgent({ generation });
    client = await A2AClient.open(agent.url);
    const opened = await client.acceptance.sendStream(userMessage({ text: 'write' }), {
      criteria: { maxRejections: 1 },
    });
    if (!opened.ok) throw new Error('refused');
    expect(opened.gate).toBe('active');
    expect(agent.requests[0]!.params.message.metadata[CRITERIA_KEY]).toEqual({ maxRejections: 1 });
    const { events } = await opened.stream.collect();
    const pending = events.findIndex((e) => isPendingAcceptance(e.event));
    const artifact = events.findIndex((e) => 'artifactUpdate' in e.event);
    expect(artifact).toBe(0);
    expect(pending).toBe(1);
  });

  it('a refused criteria stream comes back as criteria-invalid', async () => {
    agent = await startFakeAcceptanceAgent({ generation });
    client = await A2AClient.open(agent.url);
    const opened = await client.acceptance.sendStream(userMessage({ text: 'write' }), {
      criteria: { evaluator: 'robot' },
    });
    expect(opened.ok).toBe(false);
    expect(opened.refusal).toMatchObject({ kind: 'criteria-invalid', reason: 'unknown evaluator robot' });
  });
});
